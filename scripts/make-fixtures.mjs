// Generates the camera and image fixtures of the browser journeys and the benchmark into
// tests/fixtures/generated/ (not committed): a specimen identity document and a face, drawn in Chromium,
// saved as JPEG photos (sharp and blurred, phone-sized and 12-megapixel) and as Y4M videos that feed
// Chromium's fake camera (--use-file-for-fake-video-capture).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

const OUT = 'tests/fixtures/generated';
const VERSION = '6';

const card = (
  blur,
) => `<!doctype html><html><body style="margin:0;background:#3b3b3b;display:grid;place-items:center;height:100vh">
<div style="filter:blur(${blur}px);width:78vw;aspect-ratio:85.6/54;border-radius:3vw;background:linear-gradient(135deg,#e9f1ff,#c9dcff);box-shadow:0 1vw 3vw #0008;position:relative;font-family:DejaVu Sans,sans-serif;color:#0b1b3f;overflow:hidden">
  <div style="position:absolute;left:4%;top:6%;font-size:3.2vw;font-weight:700;letter-spacing:.1em">REINO DE ESPAÑA · DOCUMENTO NACIONAL DE IDENTIDAD</div>
  <div style="position:absolute;left:4%;top:22%;width:26%;height:58%;background:#8aa1c9;border-radius:1vw;overflow:hidden">
    <div style="position:absolute;left:22%;top:12%;width:56%;height:46%;border-radius:50%;background:#f1c9a5"></div>
    <div style="position:absolute;left:8%;top:62%;width:84%;height:50%;border-radius:50% 50% 0 0;background:#27406b"></div>
  </div>
  <div style="position:absolute;left:34%;top:22%;font-size:2.4vw;line-height:1.5">
    <div>APELLIDOS / SURNAME</div><div style="font-weight:700;font-size:3vw">ESPAÑOLA ESPAÑOLA</div>
    <div>NOMBRE / NAME</div><div style="font-weight:700;font-size:3vw">CARMEN</div>
    <div>FECHA DE NACIMIENTO · 01 01 1980</div><div>VÁLIDO HASTA · 01 01 2031</div>
    <div style="font-weight:700;font-size:3.4vw;letter-spacing:.15em">99999999R</div>
  </div>
  <div style="position:absolute;left:0;right:0;bottom:0;height:16%;background:#fff8;font-family:DejaVu Sans Mono,monospace;font-size:2.2vw;padding:1% 4%">IDESPBAA000589599999999R&lt;&lt;&lt;&lt;&lt;&lt;<br>8001014F3101012ESP&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;4</div>
</div></body></html>`;

const face = (
  blur,
) => `<!doctype html><html><body style="margin:0;background:linear-gradient(#d9e4f2,#aab8cc);height:100vh;display:grid;place-items:center">
<div style="filter:blur(${blur}px);position:relative;width:46vh;height:80vh">
  <div style="position:absolute;left:0;right:0;bottom:-20vh;height:45vh;border-radius:50% 50% 0 0;background:#2f4e7e"></div>
  <div style="position:absolute;left:8vh;top:6vh;width:30vh;height:40vh;border-radius:50%;background:#e8b995"></div>
  <div style="position:absolute;left:7vh;top:2vh;width:32vh;height:16vh;border-radius:50% 50% 20% 20%;background:#3a2a1e"></div>
  <div style="position:absolute;left:14vh;top:22vh;width:4vh;height:2.4vh;border-radius:50%;background:#1d1d1d"></div>
  <div style="position:absolute;left:28vh;top:22vh;width:4vh;height:2.4vh;border-radius:50%;background:#1d1d1d"></div>
  <div style="position:absolute;left:21.5vh;top:26vh;width:3vh;height:7vh;border-radius:40%;background:#d9a27c"></div>
  <div style="position:absolute;left:17vh;top:36vh;width:12vh;height:3vh;border-radius:0 0 50% 50%;background:#b55b52"></div>
</div></body></html>`;

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
  // One line per file drawn: on a busy machine the 12-megapixel photo alone can take many seconds.
  const started = Date.now();
  const done = (file) => console.log(`  ${file} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`Drawing the camera and photo fixtures in Chromium into ${OUT}/…`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const shoot = async (html, width, height, file, quality = 90) => {
      const page = await browser.newPage({ viewport: { width, height } });
      await page.setContent(html);
      const jpeg = await page.screenshot({ type: 'jpeg', quality });
      writeFileSync(join(OUT, file), jpeg);
      await page.close();
      done(file);
    };
    const video = async (html, file) => {
      const [width, height] = [640, 480];
      const page = await browser.newPage({ viewport: { width, height } });
      await page.setContent(html);
      const png = await page.screenshot({ type: 'png' });
      // The pixels come back base64-encoded: as a JSON array of 1.2 million numbers they took tens of seconds.
      const rgba = await page.evaluate(async (b64) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d');
        context.drawImage(bitmap, 0, 0);
        const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
        let binary = '';
        for (let i = 0; i < data.length; i += 0x8000) {
          binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
        }
        return btoa(binary);
      }, png.toString('base64'));
      writeFileSync(join(OUT, file), toY4m(Buffer.from(rgba, 'base64'), width, height, 60));
      await page.close();
      done(file);
    };
    await shoot(card(0), 1280, 960, 'document.jpg');
    await shoot(card(9), 1280, 960, 'document-blurred.jpg');
    await shoot(face(0), 960, 1280, 'selfie.jpg');
    // A 12-megapixel phone photo (4000 × 3000) for the image-preparation benchmark.
    await shoot(card(0), 4000, 3000, 'document-12mp.jpg', 92);
    await video(card(0), 'document.y4m');
    await video(face(0), 'selfie.y4m');
  } finally {
    await browser.close();
  }
  writeFileSync(stamp, new Date().toISOString());
  return OUT;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`fixtures in ${await makeFixtures()}`);
}
