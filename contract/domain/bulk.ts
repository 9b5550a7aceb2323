// Add users from photos (spec §2 portal menu "add users from photos"; §5 1000 elements per file, metadata not valid
// JSON or CSV, media not a valid or a corrupt zip, id already exists, email already in use): the rules shared by the
// browser's check before upload and the reference server. A metadata file lists one person per element (email,
// first_name, last_name, acs_id, image, and optionally username); image names a picture in the zip.
import { csvRow, parseCsv } from './csv';
import { isEmail } from './email';
import {
  type AcsIdSchema,
  acsIdProblem,
  DELEGATED_IMAGE_MAX_BYTES,
  DELEGATED_IMAGE_MIN_BYTES,
} from './singles';

/** Spec §5 and §9: at most 1000 elements per file. */
export const BULK_MAX_ROWS = 1000;
/** Each picture: the delegated onboarding's image bytes (spec §5), 6,828 to 6,990,508. */
export const BULK_IMAGE_MIN_BYTES = DELEGATED_IMAGE_MIN_BYTES;
export const BULK_IMAGE_MAX_BYTES = DELEGATED_IMAGE_MAX_BYTES;
/** The whole upload (multipart body): metadata plus the zip as sent. */
export const BULK_MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
/** Every picture of the zip once inflated, together (the server holds them while it registers the rows). */
export const BULK_MAX_INFLATED_BYTES = 256 * 1024 * 1024;
/** The metadata file. */
export const BULK_MAX_METADATA_BYTES = 2 * 1024 * 1024;
/** Entries of the zip (pictures and anything else in it). */
export const BULK_MAX_ZIP_ENTRIES = 2 * BULK_MAX_ROWS;

export const BULK_COLUMNS = ['email', 'first_name', 'last_name', 'acs_id', 'image'] as const;
const OPTIONAL_COLUMNS = ['username'] as const;

/** One element of the metadata file; row counts the elements from 1 (a CSV's header is not one). */
export interface BulkRow {
  row: number;
  email: string;
  first_name: string;
  last_name: string;
  acs_id: string;
  image: string;
  username: string;
}

/** Why the metadata as a whole cannot be read (message key bulk.problem.{code}). */
export type MetadataProblem =
  | { code: 'metadata_invalid'; row?: number }
  | { code: 'metadata_empty' }
  | { code: 'metadata_columns'; missing: string[] }
  | { code: 'too_many_elements'; count: number };

export type MetadataResult = { ok: true; rows: BulkRow[] } | { ok: false; problem: MetadataProblem };

/** What one row is refused for before it is sent: the field and the code (common.errors.{code} or bulk.row.{code}). */
export interface RowProblem {
  row: number;
  field: 'email' | 'first_name' | 'last_name' | 'acs_id' | 'image' | 'username';
  code: string;
}

/** JSON when the file name ends in .json or the text starts with [ or {; CSV otherwise. */
export function metadataKindOf(name: string, text: string): 'json' | 'csv' {
  if (/\.json$/i.test(name)) return 'json';
  if (/\.csv$/i.test(name)) return 'csv';
  return /^\s*[[{]/.test(text.replace(/^\uFEFF/, '')) ? 'json' : 'csv';
}

const cell = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

function toRow(record: Record<string, unknown>, row: number): BulkRow {
  return {
    row,
    email: cell(record.email),
    first_name: cell(record.first_name),
    last_name: cell(record.last_name),
    acs_id: cell(record.acs_id),
    image: cell(record.image),
    username: cell(record.username),
  };
}

/**
 * The elements of a metadata file: a JSON array of objects (or `{ "users": [...] }`), or a CSV (RFC 4180, `,` or
 * `;`) whose first line names the columns. More than BULK_MAX_ROWS elements is refused as a whole.
 */
export function parseMetadata(text: string, kind: 'json' | 'csv'): MetadataResult {
  const source = text.replace(/^\uFEFF/, '');
  let records: Record<string, unknown>[];
  if (kind === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(source);
    } catch {
      return { ok: false, problem: { code: 'metadata_invalid' } };
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { users?: unknown } | null)?.users;
    if (!Array.isArray(list)) return { ok: false, problem: { code: 'metadata_invalid' } };
    const bad = list.findIndex((item) => typeof item !== 'object' || item === null || Array.isArray(item));
    if (bad >= 0) return { ok: false, problem: { code: 'metadata_invalid', row: bad + 1 } };
    records = list as Record<string, unknown>[];
  } else {
    let table: string[][];
    try {
      table = parseCsv(source);
    } catch {
      return { ok: false, problem: { code: 'metadata_invalid' } };
    }
    const [header, ...body] = table;
    if (!header) return { ok: false, problem: { code: 'metadata_empty' } };
    const names = header.map((name) => name.trim().toLowerCase());
    const missing = BULK_COLUMNS.filter((column) => !names.includes(column));
    if (missing.length > 0) return { ok: false, problem: { code: 'metadata_columns', missing } };
    const known = new Set<string>([...BULK_COLUMNS, ...OPTIONAL_COLUMNS]);
    records = body.map((cells) => {
      const record: Record<string, unknown> = {};
      names.forEach((name, i) => {
        if (known.has(name)) record[name] = cells[i] ?? '';
      });
      return record;
    });
  }
  if (records.length === 0) return { ok: false, problem: { code: 'metadata_empty' } };
  if (records.length > BULK_MAX_ROWS)
    return { ok: false, problem: { code: 'too_many_elements', count: records.length } };
  return { ok: true, rows: records.map((record, i) => toRow(record, i + 1)) };
}

/** The pictures of the zip by name, with their size once inflated (as the zip declares it). */
export type ZipListing = ReadonlyMap<string, number>;

/** jpg or png by the name (the server checks the bytes too). */
const PICTURE_NAME = /\.(jpe?g|png)$/i;

/**
 * Each row's problems, the first per field: email missing or malformed, names missing, acs_id not of the tenant's
 * acsIdSchema, image missing, not a jpg/png, not in the zip or outside the byte bounds, and a row repeating an
 * earlier row's email or acs_id (duplicate_row). Without a listing the pictures are not looked up.
 */
export function checkRows(
  rows: readonly BulkRow[],
  options: { acsIdSchema: AcsIdSchema; pictures?: ZipListing },
): RowProblem[] {
  const problems: RowProblem[] = [];
  const emails = new Map<string, number>();
  const acsIds = new Map<string, number>();
  for (const r of rows) {
    const add = (field: RowProblem['field'], code: string) => problems.push({ row: r.row, field, code });
    if (r.email === '') add('email', 'required');
    else if (!isEmail(r.email) || r.email.length > 254) add('email', 'wrong_format');
    else {
      const key = r.email.toLowerCase();
      if (emails.has(key)) add('email', 'duplicate_row');
      else emails.set(key, r.row);
    }
    if (r.first_name === '') add('first_name', 'required');
    else if (r.first_name.length > 100) add('first_name', 'too_long');
    if (r.last_name === '') add('last_name', 'required');
    else if (r.last_name.length > 100) add('last_name', 'too_long');
    if (r.username.length > 254) add('username', 'too_long');
    const acsProblem = acsIdProblem(options.acsIdSchema, r.acs_id);
    if (acsProblem) add('acs_id', acsProblem);
    else {
      const key = options.acsIdSchema === 'wiegand' ? String(Number(r.acs_id)) : r.acs_id;
      if (acsIds.has(key)) add('acs_id', 'duplicate_row');
      else acsIds.set(key, r.row);
    }
    if (r.image === '') add('image', 'required');
    else if (!PICTURE_NAME.test(r.image)) add('image', 'image_wrong_type');
    else if (options.pictures) {
      const size = options.pictures.get(r.image);
      if (size === undefined) add('image', 'image_not_found');
      else if (size < BULK_IMAGE_MIN_BYTES) add('image', 'delegated_image_too_small');
      else if (size > BULK_IMAGE_MAX_BYTES) add('image', 'delegated_image_too_large');
    }
  }
  return problems;
}

/** One row of the result (spec §8 user registration codes for the rejections the registration decides). */
export interface BulkRowResult {
  row: number;
  email: string;
  outcome: 'accepted' | 'rejected';
  /** Why it was rejected: a row problem code or a singles reason (acs_id_already_in_use…); null when accepted. */
  reason: string | null;
  /** The field the reason is about, when it is about one. */
  field?: string | null;
  code: 0 | 1 | 2 | 3;
  user_id?: string | null;
}

/** The result table as CSV (RFC 4180, UTF-8 BOM, CRLF), every cell safe from formula injection. */
export function resultsCsv(
  rows: readonly BulkRowResult[],
  headers: readonly string[],
  describe: (result: BulkRowResult) => { outcome: string; reason: string },
): string {
  return `\uFEFF${csvRow(headers)}${rows
    .map((r) => {
      const text = describe(r);
      return csvRow([r.row, r.email, text.outcome, text.reason, r.user_id ?? '']);
    })
    .join('')}`;
}
