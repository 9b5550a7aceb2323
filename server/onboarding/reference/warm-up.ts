// What the reference engine judges at start-up, so that the first person is not slower than the next: a
// passport data page and a selfie built in memory from face-api's own sample photograph (person A of
// demo/sample3.jpg, shipped in the package like the models) and the specimen MRZ of ICAO 9303 part 4 (Anna
// Maria Eriksson, every check digit valid). Judging them runs the whole path of a real
// document + selfie result: image checks, the MRZ read by Tesseract, the portrait found on the page, faces
// detected with landmarks and descriptors on the selfie, the comparison; every tfjs kernel and buffer a
// first real judgement would set up is then ready.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { EngineImage } from '../engine';

const require = createRequire(import.meta.url);
const SAMPLE = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample3.jpg');

/**
 * ICAO 9303 part 4's specimen TD3 MRZ with Sweden for its fictional Utopia (the mrz package knows only real
 * states; the country is outside every check digit, so they all still hold).
 */
export const WARM_UP_MRZ = [
  'P<SWEERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36SWE7408122F1204159ZE184226B<<<<<10',
];

const image = (kind: EngineImage['kind'], bytes: Buffer): EngineImage => ({
  kind,
  bytes: new Uint8Array(bytes),
  sharpness: { score: null, blurred: null },
});

/** A TD3 passport data page (125 × 88 mm at 10 px/mm) with person A's portrait and the specimen MRZ. */
async function passportPage(): Promise<Buffer> {
  const portrait = await sharp(SAMPLE)
    .extract({ left: 465, top: 160, width: 440, height: 560 })
    .resize(320, 410, { fit: 'cover' })
    .png()
    .toBuffer();
  const mrz = WARM_UP_MRZ.map(
    (line, i) =>
      `<text x="38" y="${745 + i * 59}" font-family="DejaVu Sans Mono" font-weight="bold" font-size="44" fill="#111">${line.replaceAll('<', '&lt;')}</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1250" height="880">
<rect width="100%" height="100%" fill="#e4ecf7"/>
<text x="40" y="60" font-family="DejaVu Sans" font-size="30" font-weight="bold" fill="#1d2a44">SVERIGE · PASS · PASSPORT</text>
<text x="400" y="160" font-family="DejaVu Sans" font-size="28" font-weight="bold" fill="#1d2a44">ERIKSSON</text>
<text x="400" y="230" font-family="DejaVu Sans" font-size="28" font-weight="bold" fill="#1d2a44">ANNA MARIA</text>
<rect x="0" y="660" width="1250" height="220" fill="#ffffff"/>${mrz}</svg>`;
  return sharp(Buffer.from(svg))
    .composite([{ input: portrait, left: 40, top: 100 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The warm-up's passport page and selfie, as a phone would upload them. */
export async function warmUpImages(): Promise<{ passport: EngineImage; selfie: EngineImage }> {
  const selfie = await sharp(SAMPLE)
    .extract({ left: 495, top: 210, width: 390, height: 520 })
    .sharpen({ sigma: 1 })
    .jpeg({ quality: 88 })
    .toBuffer();
  return { passport: image('obverse', await passportPage()), selfie: image('selfie', selfie) };
}
