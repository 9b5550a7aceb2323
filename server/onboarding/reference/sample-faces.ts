// The other people of face-api's sample photographs (demo/sample1–6.jpg), each framed as the liveness fixture frames
// person A (scripts/fixtures/head-turns.mjs): for the tests that ask how the engine's cues and thresholds hold
// beyond the fixture's one face (sample-faces.test.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { HEIGHT, WIDTH } from '../../../scripts/fixtures/head-turns.mjs';
import { type Face, facesIn } from './faces';

const require = createRequire(import.meta.url);
const DEMO = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
/** Where the fixture puts person A's nose tip, and her face's width, in its 480 × 640 frame. */
export const TIP = { x: 215, y: 359 };
const FACE_WIDTH = 260;

export interface Framed {
  name: string;
  rgb: Buffer;
}

/** Every face of the sample photographs, scaled and cut into a frame as person A is in the fixture. */
export async function framedFaces(): Promise<Framed[]> {
  const framed: Framed[] = [];
  for (const sample of [1, 2, 3, 4, 5, 6]) {
    const bytes = readFileSync(join(DEMO, `sample${sample}.jpg`));
    const { width = 0, height = 0 } = await sharp(bytes).metadata();
    for (const [index, face] of (await facesIn(bytes)).entries()) {
      const scale = FACE_WIDTH / (face.box.width * width);
      const w = Math.round(width * scale);
      const h = Math.round(height * scale);
      const pad = Math.max(WIDTH, HEIGHT);
      const padded = await sharp(bytes)
        .resize(w, h)
        .extend({ top: pad, bottom: pad, left: pad, right: pad, extendWith: 'mirror' })
        .png({ compressionLevel: 0 })
        .toBuffer();
      const rgb = await sharp(padded)
        .extract({
          left: Math.round(face.nose.x * w) + pad - TIP.x,
          top: Math.round(face.nose.y * h) + pad - TIP.y,
          width: WIDTH,
          height: HEIGHT,
        })
        .removeAlpha()
        .raw()
        .toBuffer();
      framed.push({ name: `sample${sample} face ${index + 1}`, rgb });
    }
  }
  return framed;
}

export async function faceOf(rgb: Buffer): Promise<Face | undefined> {
  const jpeg = await sharp(rgb, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  return (await facesIn(jpeg))[0];
}
