// Reading the machine-readable zone (ICAO 9303) of a document photo: Tesseract (tesseract.js, with the English
// trained data of @tesseract.js-data/eng loaded from node_modules, never downloaded) restricted to the MRZ
// alphabet reads the lower part of the image; the lines that look like a TD3 (2 × 44) or TD1 (3 × 30) zone are
// parsed and their check digits verified with the mrz package.
import { createRequire } from 'node:module';
import { type ParseResult, parse } from 'mrz';
import sharp from 'sharp';
import { createWorker, PSM, type Worker } from 'tesseract.js';
import type { DocumentInfo, FailedCheck } from '../../../contract/api/onboarding';
import { nationalIdProblem } from '../../../contract/domain/dni';

const require = createRequire(import.meta.url);
const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

let worker: Promise<Worker> | undefined;

/** One Tesseract worker per process, created on first use (or at start-up by warmUp) and reused. */
export function ocrWorker(): Promise<Worker> {
  worker ??= (async () => {
    const eng = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
    const created = await createWorker('eng', 1, {
      langPath: eng.langPath,
      gzip: eng.gzip,
      cacheMethod: 'none',
    });
    await created.setParameters({
      tessedit_char_whitelist: MRZ_ALPHABET,
      tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    });
    return created;
  })();
  worker.catch(() => {
    worker = undefined;
  });
  return worker;
}

export async function closeOcr(): Promise<void> {
  const current = worker;
  worker = undefined;
  if (current) await (await current).terminate();
}

export type MrzFormat = 'TD1' | 'TD3';

export interface MrzReading {
  format: MrzFormat;
  lines: string[];
  /** Every check digit holds. */
  valid: boolean;
  fields: ParseResult['fields'];
  /** The fields whose check digit failed (e.g. birthDate). */
  invalid: string[];
}

// The mrz package's field names (a value and its check digit) → the portal's field whose check failed.
const CHECKED_FIELDS: Record<string, FailedCheck['field']> = {
  documentNumber: 'document_number',
  documentNumberCheckDigit: 'document_number',
  birthDate: 'birth_date',
  birthDateCheckDigit: 'birth_date',
  expirationDate: 'expiry_date',
  expirationDateCheckDigit: 'expiry_date',
  personalNumber: 'id_number',
  personalNumberCheckDigit: 'id_number',
  compositeCheckDigit: 'composite',
};

/** The personal number of a reading: TD3's own field, TD1's first optional data (a DNI's number). */
export function personalNumberOf(reading: MrzReading): string | null {
  const value = reading.format === 'TD3' ? reading.fields.personalNumber : reading.fields.optional1;
  return value?.replaceAll('<', '') || null;
}

/**
 * The first check a reading fails, or null when it is verified: each check digit in the order of the zone
 * (document number, birth date, expiry, personal number, composite), any other field the mrz package refuses
 * (an unknown country, a sex that is not M/F/<), and, on a Spanish document (issued by ESP, or chosen as
 * ES), the personal number by the DNI/NIE rules (its shape and its letter, the number modulo 23).
 */
export function failedCheckOf(reading: MrzReading, documentCountry: string | null): FailedCheck | null {
  for (const field of reading.invalid) {
    const checked = CHECKED_FIELDS[field];
    if (checked) return { field: checked, rule: 'check_digit' };
  }
  if (!reading.valid) return { field: 'mrz', rule: 'format' };
  const personal = personalNumberOf(reading);
  const spanish = reading.fields.issuingState === 'ESP' || documentCountry === 'ES';
  if (spanish && personal && nationalIdProblem(personal) !== null)
    return { field: 'id_number', rule: 'dni_nie' };
  return null;
}

const SHAPES: { format: MrzFormat; count: number; length: number }[] = [
  { format: 'TD3', count: 2, length: 44 },
  { format: 'TD1', count: 3, length: 30 },
];

/** The MRZ lines among OCR lines: cleaned, and fitted to the length of the format they look like. */
export function mrzLinesIn(text: string): { format: MrzFormat; lines: string[] } | null {
  const candidates = text
    .split('\n')
    .map((line) => line.replace(/[^A-Z0-9<]/g, ''))
    .filter((line) => line.length >= 26);
  for (const { format, count, length } of SHAPES) {
    for (let start = 0; start + count <= candidates.length; start++) {
      const group = candidates.slice(start, start + count);
      if (group.every((line) => Math.abs(line.length - length) <= 2)) {
        // A passport's first line starts with P, a card's with I, A or C.
        const first = group[0]?.[0] ?? '';
        if (format === 'TD3' && first !== 'P') continue;
        if (format === 'TD1' && !'IAC'.includes(first)) continue;
        return { format, lines: group.map((line) => line.padEnd(length, '<').slice(0, length)) };
      }
    }
  }
  return null;
}

export function parseMrz(format: MrzFormat, lines: string[]): MrzReading | null {
  let result: ParseResult;
  try {
    result = parse(lines, { autocorrect: true });
  } catch {
    return null;
  }
  if (result.format !== format) return null;
  const invalid = result.details
    .filter((detail) => !detail.valid && detail.field !== null)
    .map((detail) => detail.field as string);
  return { format, lines, valid: result.valid, fields: result.fields, invalid };
}

/** Reads the MRZ of a photo, or null when none is found. */
export async function readMrz(bytes: Uint8Array): Promise<MrzReading | null> {
  const image = sharp(bytes).rotate();
  const { width = 0, height = 0 } = await image.metadata();
  if (width < 200 || height < 120) return null;
  // The zone is in the lower part of the page. Tesseract reads OCR-B best at a given glyph size, which
  // depends on how the page was framed: a second width is tried when the first reads no valid zone.
  const top = Math.round(height * 0.5);
  let best: MrzReading | null = null;
  for (const target of [1000, 1500]) {
    const png = await sharp(bytes)
      .rotate()
      .extract({ left: 0, top, width, height: height - top })
      .resize(target)
      .greyscale()
      .normalise()
      .png()
      .toBuffer();
    const { data } = await (await ocrWorker()).recognize(png);
    const found = mrzLinesIn(data.text);
    const reading = found ? parseMrz(found.format, found.lines) : null;
    if (reading?.valid) return reading;
    best ??= reading;
  }
  return best;
}

const YEAR_NOW = new Date().getUTCFullYear() % 100;

/** YYMMDD → YYYY-MM-DD; a birth date is in the past, an expiry date within the next 50 years. */
export function mrzDate(value: string | null | undefined, kind: 'birth' | 'expiry'): string | null {
  if (!value || !/^\d{6}$/.test(value)) return null;
  const yy = Number(value.slice(0, 2));
  const century = kind === 'birth' ? (yy > YEAR_NOW ? 1900 : 2000) : yy >= YEAR_NOW + 50 ? 1900 : 2000;
  return `${century + yy}-${value.slice(2, 4)}-${value.slice(4, 6)}`;
}

const words = (value: string | null | undefined) => value?.replace(/\s+/g, ' ').trim() || null;

/** The portal's document_info from an MRZ reading. */
export function documentInfoOf(reading: MrzReading, documentType: string | null): DocumentInfo {
  const f = reading.fields;
  return {
    first_name: words(f.firstName),
    last_name: words(f.lastName),
    birth_date: mrzDate(f.birthDate, 'birth'),
    id_number: personalNumberOf(reading),
    document_number: f.documentNumber ?? null,
    expiry_date: mrzDate(f.expirationDate, 'expiry'),
    expedition_country: f.issuingState ?? null,
    nationality: f.nationality ?? null,
    document_type: documentType ?? (reading.format === 'TD3' ? 'passport' : 'id_card'),
  };
}

/** The document type an MRZ says: P… is a passport, I/A/C… an identity card. */
export function mrzDocumentType(reading: MrzReading): 'passport' | 'id_card' {
  return reading.format === 'TD3' ? 'passport' : 'id_card';
}
