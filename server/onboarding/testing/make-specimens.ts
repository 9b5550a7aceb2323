// Builds the specimen identity documents and selfies of the reference engine's tests into
// tests/fixtures/specimens/ (committed; run again after changing this file):
//
//   npx tsx server/onboarding/testing/make-specimens.ts
//
// The faces are photographs shipped by @vladmandic/face-api (demo/sample*.jpg). Person A (sample3, the
// woman on the left) is on every document; her selfie is another crop of the same photograph, lit, scaled and
// framed differently, so that it is neither byte-identical nor perceptually identical to the document photo.
// Person B (sample3, on the right) is "another person". The documents are a TD3 passport page and a TD1 card
// (photo on the front, MRZ on the back, and a camera card with both on one side for the browser's fake camera),
// with a valid ICAO 9303 MRZ drawn in a monospace font (DejaVu Sans Mono Bold, OCR-B-like), and the same
// documents with one broken check digit. The turned heads are the selfie warped around the nose (one side of
// the face compressed, the other stretched), the way a turn looks to a 2-D landmark model.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions, type Sharp } from 'sharp';

export const SPECIMENS_DIR = fileURLToPath(new URL('../../../tests/fixtures/specimens/', import.meta.url));

const require = createRequire(import.meta.url);
const SAMPLES = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');

/** The person on the documents (ICAO 9303 specimen data). */
export const SPECIMEN = {
  lastName: 'ESPANOLA ESPANOLA',
  firstName: 'CARMEN',
  birthDate: '1980-01-01',
  expiryDate: '2031-01-01',
  sex: 'F',
  nationality: 'ESP',
  issuingState: 'ESP',
  passportNumber: 'PAA123456',
  cardNumber: 'BAA000589',
  idNumber: '99999999R',
} as const;

const WEIGHTS = [7, 3, 1];
function charValue(char: string): number {
  if (char === '<') return 0;
  if (char >= '0' && char <= '9') return char.charCodeAt(0) - 48;
  return char.charCodeAt(0) - 55;
}
/** ICAO 9303 check digit (weights 7, 3, 1). */
export function checkDigit(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += charValue(text[i] ?? '<') * (WEIGHTS[i % 3] ?? 1);
  return String(sum % 10);
}

const pad = (text: string, length: number) => (text + '<'.repeat(length)).slice(0, length);
const yymmdd = (iso: string) => iso.slice(2).replaceAll('-', '');
const mrzName = (last: string, first: string, length: number) =>
  pad(`${last.replaceAll(' ', '<')}<<${first.replaceAll(' ', '<')}`, length);

export function td3Lines(): [string, string] {
  const s = SPECIMEN;
  const line1 = pad(`P<${s.issuingState}${mrzName(s.lastName, s.firstName, 39)}`, 44);
  const number = pad(s.passportNumber, 9);
  const personal = pad(s.idNumber, 14);
  const birth = yymmdd(s.birthDate);
  const expiry = yymmdd(s.expiryDate);
  const body =
    `${number}${checkDigit(number)}${s.nationality}${birth}${checkDigit(birth)}${s.sex}` +
    `${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}`;
  const composite = checkDigit(
    `${number}${checkDigit(number)}${birth}${checkDigit(birth)}${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}`,
  );
  return [line1, `${body}${composite}`];
}

export function td1Lines(): [string, string, string] {
  const s = SPECIMEN;
  const number = pad(s.cardNumber, 9);
  const line1 = pad(`I<${s.issuingState}${number}${checkDigit(number)}${s.idNumber}`, 30);
  const birth = yymmdd(s.birthDate);
  const expiry = yymmdd(s.expiryDate);
  const line2start = `${birth}${checkDigit(birth)}${s.sex}${expiry}${checkDigit(expiry)}${s.nationality}`;
  const line2body = pad(line2start, 29);
  const composite = checkDigit(
    `${line1.slice(5, 30)}${line2body.slice(0, 7)}${line2body.slice(8, 15)}${line2body.slice(18, 29)}`,
  );
  const line3 = mrzName(s.lastName, s.firstName, 30);
  return [line1, `${line2body}${composite}`, line3];
}

/** The same lines with the birth date's check digit off by one. */
export function brokenCheck(lines: string[]): string[] {
  const index = lines.length === 2 ? 1 : 1;
  const position = lines.length === 2 ? 19 : 6;
  const line = lines[index] ?? '';
  const digit = String((Number(line[position]) + 1) % 10);
  return lines.map((text, i) =>
    i === index ? text.slice(0, position) + digit + text.slice(position + 1) : text,
  );
}

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

interface Crop {
  sample: number;
  left: number;
  top: number;
  width: number;
  height: number;
}
// Face boxes found by face-api in the sample photographs, widened to a head-and-shoulders portrait.
const PERSON_A: Crop = { sample: 3, left: 465, top: 160, width: 440, height: 560 };
const PERSON_B: Crop = { sample: 3, left: 1405, top: 130, width: 390, height: 500 };
const TWO_PEOPLE: Crop = { sample: 3, left: 430, top: 110, width: 940, height: 640 };

function crop(area: Crop): Sharp {
  const { sample, ...region } = area;
  return sharp(join(SAMPLES, `sample${sample}.jpg`)).extract(region);
}

async function portrait(width: number, height: number): Promise<Buffer> {
  return crop(PERSON_A)
    .resize(width, height, { fit: 'cover' })
    .modulate({ saturation: 0.85 })
    .png()
    .toBuffer();
}

function text(x: number, y: number, size: number, body: string, weight = 'normal', fill = '#1d2a44'): string {
  return `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(body)}</text>`;
}

function mrzText(x: number, y: number, size: number, lines: string[]): string {
  return lines
    .map(
      (line, i) =>
        `<text x="${x}" y="${y + i * size * 1.35}" font-family="DejaVu Sans Mono" font-weight="bold" font-size="${size}" fill="#111">${escapeXml(line)}</text>`,
    )
    .join('');
}

async function page(
  width: number,
  height: number,
  background: string,
  body: string,
  photo?: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${background}"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${body}</svg>`;
  const layers: OverlayOptions[] = [];
  if (photo)
    layers.push({ input: await portrait(photo.width, photo.height), left: photo.left, top: photo.top });
  return sharp(Buffer.from(svg)).composite(layers).jpeg({ quality: 90 }).toBuffer();
}

const s = SPECIMEN;
const dmy = (iso: string) => iso.split('-').reverse().join(' ');

/** A TD3 passport data page (125 × 88 mm at 10 px/mm). */
async function passport(lines: string[]): Promise<Buffer> {
  const body = [
    text(40, 60, 30, 'REINO DE ESPAÑA · PASAPORTE / PASSPORT', 'bold'),
    text(400, 130, 20, 'Apellidos / Surname'),
    text(400, 160, 28, 'ESPAÑOLA ESPAÑOLA', 'bold'),
    text(400, 200, 20, 'Nombre / Given names'),
    text(400, 230, 28, 'CARMEN', 'bold'),
    text(400, 270, 20, 'Nacionalidad / Nationality'),
    text(400, 300, 26, 'ESPAÑOLA', 'bold'),
    text(400, 340, 20, 'Fecha de nacimiento / Date of birth'),
    text(400, 370, 26, dmy(s.birthDate), 'bold'),
    text(400, 410, 20, 'Fecha de caducidad / Date of expiry'),
    text(400, 440, 26, dmy(s.expiryDate), 'bold'),
    text(840, 130, 20, 'Pasaporte nº / Passport No.'),
    text(840, 160, 28, s.passportNumber, 'bold'),
    text(840, 200, 20, 'DNI / Personal No.'),
    text(840, 230, 28, s.idNumber, 'bold'),
    '<rect x="0" y="660" width="1250" height="220" fill="#ffffff"/>',
    mrzText(38, 745, 44, lines),
  ].join('');
  return page(1250, 880, '#dfe8f5', body, { left: 40, top: 100, width: 320, height: 410 });
}

/** The front of a TD1 card (85.6 × 54 mm at 15 px/mm); with the MRZ too for the camera card. */
async function cardFront(lines?: string[]): Promise<Buffer> {
  const body = [
    text(40, 64, 34, 'REINO DE ESPAÑA · DOCUMENTO NACIONAL DE IDENTIDAD', 'bold'),
    text(420, 140, 24, 'APELLIDOS / SURNAME'),
    text(420, 176, 34, 'ESPAÑOLA ESPAÑOLA', 'bold'),
    text(420, 226, 24, 'NOMBRE / NAME'),
    text(420, 262, 34, 'CARMEN', 'bold'),
    text(420, 312, 24, `NACIMIENTO · ${dmy(s.birthDate)}`),
    text(420, 352, 24, `VÁLIDO HASTA · ${dmy(s.expiryDate)}`),
    text(420, 410, 38, s.idNumber, 'bold'),
    lines
      ? `<rect x="0" y="560" width="1284" height="250" fill="#ffffff"/>${mrzText(40, 625, 46, lines)}`
      : '',
  ].join('');
  return page(1284, 810, '#d7e6ff', body, {
    left: 40,
    top: 100,
    width: 340,
    height: lines ? 440 : 520,
  });
}

async function cardBack(lines: string[]): Promise<Buffer> {
  const body = [
    text(40, 70, 26, 'DOMICILIO · C/ DE LA PAZ 1, MADRID'),
    text(40, 110, 26, 'LUGAR DE NACIMIENTO · MADRID'),
    text(40, 150, 26, 'HIJA DE · JUAN / MARÍA'),
    '<rect x="0" y="480" width="1284" height="330" fill="#ffffff"/>',
    mrzText(40, 580, 50, lines),
  ].join('');
  return page(1284, 810, '#e9f1ff', body);
}

// ── Selfies ─────────────────────────────────────────────────────────────────────────────────────────────

/** A selfie at the photograph's own resolution (never enlarged: an enlarged photo measures as blurred). */
async function selfie(area: Crop, brightness = 1.08) {
  return crop(area)
    .modulate({ brightness, saturation: 1.1 })
    .sharpen({ sigma: 1 })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * Remaps the columns (horizontal) or rows (vertical) around `pivot` (0–1): the side before it is squeezed to
 * `ratio` of its size and the side after it stretched to fill the image, as a head turned that way looks.
 */
async function warp(image: Buffer, axis: 'x' | 'y', pivot: number, ratio: number): Promise<Buffer> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const length = axis === 'x' ? width : height;
  const p = pivot * length;
  const q = p * ratio; // where the pivot lands
  const source = (t: number) => (t < q ? t / ratio : p + ((t - q) * (length - p)) / (length - q));
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = axis === 'x' ? Math.min(width - 1, Math.round(source(x))) : x;
      const sy = axis === 'y' ? Math.min(height - 1, Math.round(source(y))) : y;
      for (let c = 0; c < channels; c++)
        out[(y * width + x) * channels + c] = data[(sy * width + sx) * channels + c] ?? 0;
    }
  }
  return sharp(out, { raw: { width, height, channels } }).jpeg({ quality: 88 }).toBuffer();
}

const SELFIE_OF_A: Crop = { sample: 3, left: 495, top: 210, width: 390, height: 520 };

export async function makeSpecimens(): Promise<Record<string, Buffer>> {
  const td3 = td3Lines();
  const td1 = td1Lines();
  const own = await selfie(SELFIE_OF_A);
  const flip = (image: Buffer) => sharp(image).flop().jpeg({ quality: 88 }).toBuffer();
  // The nose of person A sits at about 52 % of the selfie's width and 50 % of its height.
  const turnedOneWay = await warp(own, 'x', 0.52, 0.45);
  return {
    'passport.jpg': await passport(td3),
    'passport-broken-check.jpg': await passport(brokenCheck(td3)),
    'id-card-front.jpg': await cardFront(),
    'id-card-back.jpg': await cardBack(td1),
    'id-card-back-broken-check.jpg': await cardBack(brokenCheck(td1)),
    'camera-card.jpg': await cardFront(td1),
    'selfie.jpg': own,
    'selfie-other.jpg': await selfie(PERSON_B),
    'selfie-two-people.jpg': await selfie(TWO_PEOPLE),
    // Seen from the camera, a head turned to the person's left shows its right cheek squeezed on screen right.
    'selfie-turned-right.jpg': turnedOneWay,
    'selfie-turned-left.jpg': await flip(await warp(await flip(own), 'x', 0.48, 0.45)),
    'selfie-looking-up.jpg': await warp(own, 'y', 0.55, 0.6),
    'selfie-looking-down.jpg': await sharp(
      await warp(await sharp(own).flip().jpeg().toBuffer(), 'y', 0.45, 0.6),
    )
      .flip()
      .jpeg({ quality: 88 })
      .toBuffer(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(SPECIMENS_DIR, { recursive: true });
  for (const [name, bytes] of Object.entries(await makeSpecimens())) {
    writeFileSync(join(SPECIMENS_DIR, name), bytes);
    console.log(`${name} ${bytes.length} bytes`);
  }
}
