// Builds the documents on which the reference engine's verdicts are tested and measured into
// tests/fixtures/specimens/checks/ (committed; run again after changing this file):
//
//   npx tsx server/onboarding/testing/make-check-specimens.ts
//
// Another person and other numbers than the specimens of make-specimens.ts: Miren Garay Etxeberria, the man of
// the woman of face-api's demo/sample2.jpg (person C), DNI 31638100J, passport PAE740219, card
// CKB617204. Each refused case breaks exactly one thing, with every other check digit computed over what is
// printed (so that only the check named fails): each check digit of the passport in turn (document number,
// birth date, expiry, personal number, composite), a personal number whose DNI letter was misread (J as 5:
// 316381005, every check digit computed over it), a card whose DNI letter is wrong (TD1 has no check digit of
// its own for it, only the DNI rule catches it), and a passport whose portrait area holds no face.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import { checkDigit } from './make-specimens';

export const CHECK_SPECIMENS_DIR = fileURLToPath(
  new URL('../../../tests/fixtures/specimens/checks/', import.meta.url),
);

const require = createRequire(import.meta.url);
const SAMPLE2 = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample2.jpg');

/** The person of these documents. */
export const PERSON_C = {
  lastName: 'GARAY ETXEBERRIA',
  firstName: 'MIREN',
  birthDate: '1992-07-14',
  expiryDate: '2034-03-09',
  sex: 'F',
  nationality: 'ESP',
  issuingState: 'ESP',
  passportNumber: 'PAE740219',
  cardNumber: 'CKB617204',
  idNumber: '31638100J',
} as const;

const pad = (text: string, length: number) => (text + '<'.repeat(length)).slice(0, length);
const yymmdd = (iso: string) => iso.slice(2).replaceAll('-', '');
const mrzName = (last: string, first: string, length: number) =>
  pad(`${last.replaceAll(' ', '<')}<<${first.replaceAll(' ', '<')}`, length);
const wrong = (digit: string) => String((Number(digit) + 1) % 10);

/** What a passport's MRZ breaks: one check digit, or nothing. */
export type Td3Break = 'document_number' | 'birth_date' | 'expiry_date' | 'id_number' | 'composite' | null;

/** The TD3 zone of person C's passport, with `personal` as its personal number and one check digit broken. */
export function td3LinesOf(broken: Td3Break = null, personal: string = PERSON_C.idNumber): [string, string] {
  const p = PERSON_C;
  const line1 = pad(`P<${p.issuingState}${mrzName(p.lastName, p.firstName, 39)}`, 44);
  const number = pad(p.passportNumber, 9);
  const birth = yymmdd(p.birthDate);
  const expiry = yymmdd(p.expiryDate);
  const personalField = pad(personal, 14);
  const digit = (field: Td3Break, value: string) =>
    broken === field ? wrong(checkDigit(value)) : checkDigit(value);
  const numberCheck = digit('document_number', number);
  const birthCheck = digit('birth_date', birth);
  const expiryCheck = digit('expiry_date', expiry);
  const personalCheck = digit('id_number', personalField);
  // Over the digits as printed: a broken field digit leaves the composite consistent with it.
  const composite = checkDigit(
    `${number}${numberCheck}${birth}${birthCheck}${expiry}${expiryCheck}${personalField}${personalCheck}`,
  );
  const line2 =
    `${number}${numberCheck}${p.nationality}${birth}${birthCheck}${p.sex}${expiry}${expiryCheck}` +
    `${personalField}${personalCheck}${broken === 'composite' ? wrong(composite) : composite}`;
  return [line1, line2];
}

/** The TD1 zone of person C's DNI card, with `personal` in its first optional data. */
export function td1LinesOf(personal: string = PERSON_C.idNumber): [string, string, string] {
  const p = PERSON_C;
  const number = pad(p.cardNumber, 9);
  const line1 = pad(`I<${p.issuingState}${number}${checkDigit(number)}${personal}`, 30);
  const birth = yymmdd(p.birthDate);
  const expiry = yymmdd(p.expiryDate);
  const line2body = pad(
    `${birth}${checkDigit(birth)}${p.sex}${expiry}${checkDigit(expiry)}${p.nationality}`,
    29,
  );
  const composite = checkDigit(
    `${line1.slice(5, 30)}${line2body.slice(0, 7)}${line2body.slice(8, 15)}${line2body.slice(18, 29)}`,
  );
  return [line1, `${line2body}${composite}`, mrzName(p.lastName, p.firstName, 30)];
}

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const text = (x: number, y: number, size: number, body: string, weight = 'normal') =>
  `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" font-weight="${weight}" fill="#2a2140">${escapeXml(body)}</text>`;
const mrzText = (x: number, y: number, size: number, lines: string[]) =>
  lines
    .map(
      (line, i) =>
        `<text x="${x}" y="${y + i * size * 1.35}" font-family="DejaVu Sans Mono" font-weight="bold" font-size="${size}" fill="#111">${escapeXml(line)}</text>`,
    )
    .join('');

/** Person C's head and shoulders (face box found by face-api in sample2.jpg, widened). */
const portraitOf = (width: number, height: number) =>
  sharp(SAMPLE2)
    .extract({ left: 1278, top: 46, width: 520, height: 660 })
    .resize(width, height, { fit: 'cover' })
    .modulate({ saturation: 0.9 })
    .png()
    .toBuffer();

/** A portrait area without a face: the printed guilloche and a grey silhouette-free placeholder. */
async function faceless(width: number, height: number): Promise<Buffer> {
  const waves = Array.from(
    { length: 18 },
    (_, i) =>
      `<path d="M0 ${20 + i * 22} Q ${width / 2} ${i * 22 - 30} ${width} ${20 + i * 22}" stroke="#b9b2cf" stroke-width="3" fill="none"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#e6e2ef"/>${waves}${text(40, height / 2, 30, 'SIN FOTO / NO PHOTO', 'bold')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function page(
  width: number,
  height: number,
  body: string,
  photo?: { left: number; top: number; width: number; height: number; face: boolean },
): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#efe3f3"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${body}</svg>`;
  const layers: OverlayOptions[] = [];
  if (photo) {
    const input = photo.face
      ? await portraitOf(photo.width, photo.height)
      : await faceless(photo.width, photo.height);
    layers.push({ input, left: photo.left, top: photo.top });
  }
  return sharp(Buffer.from(svg)).composite(layers).jpeg({ quality: 90 }).toBuffer();
}

const p = PERSON_C;
const dmy = (iso: string) => iso.split('-').reverse().join(' ');

/** Person C's passport data page (125 × 88 mm at 10 px/mm). */
async function passport(lines: string[], face = true): Promise<Buffer> {
  const body = [
    text(40, 60, 30, 'REINO DE ESPAÑA · PASAPORTE / PASSPORT', 'bold'),
    text(400, 130, 20, 'Apellidos / Surname'),
    text(400, 160, 28, p.lastName, 'bold'),
    text(400, 200, 20, 'Nombre / Given names'),
    text(400, 230, 28, p.firstName, 'bold'),
    text(400, 270, 20, 'Nacionalidad / Nationality'),
    text(400, 300, 26, 'ESPAÑOLA', 'bold'),
    text(400, 340, 20, 'Fecha de nacimiento / Date of birth'),
    text(400, 370, 26, dmy(p.birthDate), 'bold'),
    text(400, 410, 20, 'Fecha de caducidad / Date of expiry'),
    text(400, 440, 26, dmy(p.expiryDate), 'bold'),
    text(840, 130, 20, 'Pasaporte nº / Passport No.'),
    text(840, 160, 28, p.passportNumber, 'bold'),
    text(840, 200, 20, 'DNI / Personal No.'),
    text(840, 230, 28, p.idNumber, 'bold'),
    '<rect x="0" y="660" width="1250" height="220" fill="#ffffff"/>',
    mrzText(38, 745, 44, lines),
  ].join('');
  return page(1250, 880, body, { left: 40, top: 100, width: 320, height: 410, face });
}

/** The front of person C's DNI card (85.6 × 54 mm at 15 px/mm). */
async function cardFront(): Promise<Buffer> {
  const body = [
    text(40, 64, 34, 'REINO DE ESPAÑA · DOCUMENTO NACIONAL DE IDENTIDAD', 'bold'),
    text(420, 140, 24, 'APELLIDOS / SURNAME'),
    text(420, 176, 34, p.lastName, 'bold'),
    text(420, 226, 24, 'NOMBRE / NAME'),
    text(420, 262, 34, p.firstName, 'bold'),
    text(420, 312, 24, `NACIMIENTO · ${dmy(p.birthDate)}`),
    text(420, 352, 24, `VÁLIDO HASTA · ${dmy(p.expiryDate)}`),
    text(420, 410, 38, p.idNumber, 'bold'),
  ].join('');
  return page(1284, 810, body, { left: 40, top: 100, width: 340, height: 520, face: true });
}

async function cardBack(lines: string[]): Promise<Buffer> {
  const body = [
    text(40, 70, 26, 'DOMICILIO · C/ NAGUSIA 7, BILBAO'),
    text(40, 110, 26, 'LUGAR DE NACIMIENTO · BILBAO'),
    '<rect x="0" y="480" width="1284" height="330" fill="#ffffff"/>',
    mrzText(40, 580, 50, lines),
  ].join('');
  return page(1284, 810, body);
}

/** Person C's selfie: another crop of the photograph, lit differently (never enlarged). */
const selfie = () =>
  sharp(SAMPLE2)
    .extract({ left: 1310, top: 90, width: 460, height: 600 })
    .modulate({ brightness: 1.06, saturation: 1.1 })
    .sharpen({ sigma: 1 })
    .jpeg({ quality: 90 })
    .toBuffer();

/** The documents, by file name. */
export async function makeCheckSpecimens(): Promise<Record<string, Buffer>> {
  return {
    'passport.jpg': await passport(td3LinesOf()),
    'passport-bad-document-number.jpg': await passport(td3LinesOf('document_number')),
    'passport-bad-birth-date.jpg': await passport(td3LinesOf('birth_date')),
    'passport-bad-expiry-date.jpg': await passport(td3LinesOf('expiry_date')),
    'passport-bad-personal-number.jpg': await passport(td3LinesOf('id_number')),
    'passport-bad-composite.jpg': await passport(td3LinesOf('composite')),
    'passport-dni-misread.jpg': await passport(td3LinesOf(null, '316381005')),
    'passport-no-face.jpg': await passport(td3LinesOf(), false),
    'id-card-front.jpg': await cardFront(),
    'id-card-back.jpg': await cardBack(td1LinesOf()),
    'id-card-back-dni-letter.jpg': await cardBack(td1LinesOf('31638100K')),
    'selfie.jpg': await selfie(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(CHECK_SPECIMENS_DIR, { recursive: true });
  for (const [name, bytes] of Object.entries(await makeCheckSpecimens())) {
    writeFileSync(join(CHECK_SPECIMENS_DIR, name), bytes);
    console.log(`${name} ${bytes.length} bytes`);
  }
}
