// Generates the camera and image fixtures of the browser journeys and the benchmark into
// tests/fixtures/generated/ (not committed) from the specimen documents and selfies of
// tests/fixtures/specimens/ (real faces from @vladmandic/face-api's sample photos and a valid MRZ; built by
// server/onboarding/testing/make-specimens.ts): photos as a phone takes them (the document on a table, sharp
// and blurred, phone-sized and 12-megapixel) and Y4M videos that feed Chromium's fake camera
// (--use-file-for-fake-video-capture), among them a head turning and tilting (scripts/fixtures/head-turns.mjs).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { headTurnsVideo } from './fixtures/head-turns.mjs';

const OUT = 'tests/fixtures/generated';
const SPECIMENS = 'tests/fixtures/specimens';
const VERSION = '11';

/** The document lying on a dark table, filling 78 % of the frame's width. */
async function onTable(file, width, height, blur = 0) {
  const card = await sharp(join(SPECIMENS, file))
    .resize(Math.round(width * 0.78), Math.round(height * 0.86), { fit: 'inside' })
    .toBuffer();
  let scene = sharp(
    await sharp({ create: { width, height, channels: 3, background: '#3b3b3b' } })
      .composite([{ input: card, gravity: 'centre' }])
      .png()
      .toBuffer(),
  );
  if (blur > 0) scene = scene.blur(blur);
  return scene;
}

/** A face filling a portrait frame. */
const portrait = (file, width, height) =>
  sharp(join(SPECIMENS, file)).resize(width, height, { fit: 'cover' });

// RGBA → YUV 4:2:0 (BT.601), as Chromium's fake capture reads it.
function toY4m(rgba, width, height, frames) {
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 4;
      const [r, g, b] = [rgba[i], rgba[i + 1], rgba[i + 2]];
      y[row * width + col] = Math.round(0.257 * r + 0.504 * g + 0.098 * b + 16);
      if (row % 2 === 0 && col % 2 === 0) {
        const j = (row / 2) * (width / 2) + col / 2;
        u[j] = Math.round(-0.148 * r - 0.291 * g + 0.439 * b + 128);
        v[j] = Math.round(0.439 * r - 0.368 * g - 0.071 * b + 128);
      }
    }
  }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F3:1 Ip A1:1 C420jpeg\n`);
  // Like a hand-held phone, no two frames are the same: each is shifted by a few pixels (hand shake). The
  // fake camera loops the file; at 3 frames a second, 60 frames repeat only every 20 seconds, so two pictures
  // taken within one journey step never come out byte for byte the same.
  const shifted = (plane, w, h, dx, dy) => {
    const out = Buffer.alloc(plane.length);
    for (let row = 0; row < h; row++) {
      const source = Math.min(h - 1, Math.max(0, row + dy)) * w;
      for (let col = 0; col < w; col++)
        out[row * w + col] = plane[source + Math.min(w - 1, Math.max(0, col + dx))];
    }
    return out;
  };
  const frameOf = (_, k) => {
    const dx = (k % 7) - 3;
    const dy = (Math.floor(k / 7) % 9) - 4;
    return Buffer.concat([
      Buffer.from('FRAME\n'),
      shifted(y, width, height, 2 * dx, 2 * dy),
      shifted(u, width / 2, height / 2, dx, dy),
      shifted(v, width / 2, height / 2, dx, dy),
    ]);
  };
  return Buffer.concat([header, ...Array.from({ length: frames }, frameOf)]);
}

export async function makeFixtures() {
  const stamp = join(OUT, `.version-${VERSION}`);
  if (existsSync(stamp)) return OUT;
  mkdirSync(OUT, { recursive: true });
  const started = Date.now();
  const done = (file) => console.log(`  ${file} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`Building the camera and photo fixtures into ${OUT}/…`);
  const jpeg = async (image, file, quality = 90) => {
    writeFileSync(join(OUT, file), await image.jpeg({ quality }).toBuffer());
    done(file);
  };
  const video = async (image, file) => {
    const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    writeFileSync(join(OUT, file), toY4m(data, info.width, info.height, 60));
    done(file);
  };
  // The camera card carries both the portrait and the TD1 MRZ on the side the camera sees.
  await jpeg(await onTable('camera-card.jpg', 1280, 960), 'document.jpg');
  await jpeg(await onTable('camera-card.jpg', 1280, 960, 9), 'document-blurred.jpg');
  await jpeg(await onTable('passport.jpg', 1280, 960), 'passport.jpg');
  for (const name of [
    'selfie',
    'selfie-other',
    'selfie-turned-left',
    'selfie-turned-right',
    'selfie-looking-up',
    'selfie-looking-down',
  ]) {
    await jpeg(portrait(`${name}.jpg`), `${name}.jpg`);
  }
  // The engine's verdict journeys: another person's passport (server/onboarding/testing/make-check-specimens.ts),
  // good, with its document number's check digit wrong, and with no face in its portrait area; her selfie.
  for (const name of ['passport', 'passport-bad-document-number', 'passport-no-face']) {
    await jpeg(await onTable(`checks/${name}.jpg`, 1280, 960), `check-${name}.jpg`);
  }
  await jpeg(portrait('checks/selfie.jpg'), 'check-selfie.jpg');
  // Add users from photos (bulk import): a zip of three people's photos under photos/, as the e2e's metadata names
  // them; the metadata itself is written by the test (its emails are new on every run).
  writeFileSync(
    join(OUT, 'bulk-photos.zip'),
    zipSync({
      'photos/ane.jpg': readFileSync(join(OUT, 'selfie.jpg')),
      'photos/jon.jpg': readFileSync(join(OUT, 'selfie-other.jpg')),
      'photos/miren.jpg': readFileSync(join(OUT, 'selfie-turned-left.jpg')),
    }),
  );
  done('bulk-photos.zip');
  // A 12-megapixel phone photo (4000 × 3000) for the image-preparation benchmark.
  await jpeg(await onTable('camera-card.jpg', 4000, 3000), 'document-12mp.jpg', 92);
  await video(await onTable('camera-card.jpg', 640, 480), 'document.y4m');
  await video(portrait('selfie.jpg', 640, 480), 'selfie.y4m');
  // Person A turning and tilting her head, a marker naming each pose (tests/e2e/liveness.spec.ts).
  writeFileSync(join(OUT, 'head-turns.y4m'), await headTurnsVideo());
  done('head-turns.y4m');
  writeFileSync(stamp, new Date().toISOString());
  return OUT;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`fixtures in ${await makeFixtures()}`);
}
