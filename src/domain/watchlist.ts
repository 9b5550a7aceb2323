// A prohibited-list (watchlist) csv (spec §3 Watchlist upload, §5 at most 10 MB; issue 13): a header row naming
// the columns (id_number and birth_date required; document_number, first_name, last_name optional; Spanish names
// accepted), then one person a row. Read in the browser (a worker, for the preview) and again on the server,
// which stores the list only when every row is valid: never half-applied.
import { CsvSyntaxError, parseCsv } from './csv';

export const WATCHLIST_MAX_BYTES = 10 * 1024 * 1024;

export interface WatchlistEntry {
  id_number: string;
  birth_date: string;
  document_number: string | null;
  first_name: string | null;
  last_name: string | null;
}

export type WatchlistRowProblem =
  | 'id_number_missing'
  | 'id_number_invalid'
  | 'birth_date_missing'
  | 'birth_date_invalid';

export interface WatchlistRowError {
  /** 1-based line of the file (the header is line 1). */
  row: number;
  problems: WatchlistRowProblem[];
}

export type WatchlistFileProblem = 'empty' | 'missing_columns' | 'unterminated_quote' | 'stray_quote';

export type WatchlistParse =
  | {
      ok: true;
      entries: WatchlistEntry[];
      errors: WatchlistRowError[];
      preview: string[][];
      header: string[];
    }
  | { ok: false; problem: WatchlistFileProblem; line?: number };

const ALIASES: Record<keyof WatchlistEntry, readonly string[]> = {
  id_number: ['id_number', 'idnumber', 'dni', 'nie', 'dni_nie', 'documento_identidad', 'nif'],
  birth_date: ['birth_date', 'birthdate', 'fecha_nacimiento', 'date_of_birth'],
  document_number: ['document_number', 'documentnumber', 'numero_documento', 'num_documento'],
  first_name: ['first_name', 'firstname', 'name', 'nombre'],
  last_name: ['last_name', 'lastname', 'surname', 'apellidos'],
};

const normaliseHeader = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\s-]+/g, '_');

/** YYYY-MM-DD or DD/MM/YYYY (also with -) of a real past date, as YYYY-MM-DD; null otherwise. */
export function watchlistDate(value: string, today = new Date()): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const european = /^(\d{2})[/-](\d{2})[/-](\d{4})$/.exec(value);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : european ? [european[3], european[2], european[1]] : [];
  if (!y || !m || !d) return null;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (
    date.getUTCFullYear() !== Number(y) ||
    date.getUTCMonth() !== Number(m) - 1 ||
    date.getUTCDate() !== Number(d)
  )
    return null;
  if (date.getTime() > today.getTime() || Number(y) < 1900) return null;
  return `${y}-${m}-${d}`;
}

const ID_NUMBER = /^[A-Z0-9]{5,20}$/;

/** Parses and validates a watchlist csv; `previewRows` data rows are kept as read for the preview. */
export function parseWatchlist(text: string, previewRows = 5, today = new Date()): WatchlistParse {
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ok: false, problem: error.code, line: error.line };
    throw error;
  }
  const [header, ...rows] = records;
  if (!header || rows.length === 0) return { ok: false, problem: 'empty' };
  const names = header.map(normaliseHeader);
  const column = (field: keyof WatchlistEntry) => names.findIndex((name) => ALIASES[field].includes(name));
  const idColumn = column('id_number');
  const birthColumn = column('birth_date');
  if (idColumn < 0 || birthColumn < 0) return { ok: false, problem: 'missing_columns' };
  const optional = (row: string[], field: keyof WatchlistEntry) => {
    const index = column(field);
    const value = index < 0 ? '' : (row[index] ?? '').trim();
    return value === '' ? null : value;
  };
  const entries: WatchlistEntry[] = [];
  const errors: WatchlistRowError[] = [];
  rows.forEach((row, index) => {
    const problems: WatchlistRowProblem[] = [];
    const idNumber = (row[idColumn] ?? '').replace(/[\s-]/g, '').toUpperCase();
    const rawBirth = (row[birthColumn] ?? '').trim();
    if (idNumber === '') problems.push('id_number_missing');
    else if (!ID_NUMBER.test(idNumber)) problems.push('id_number_invalid');
    const birthDate = rawBirth === '' ? null : watchlistDate(rawBirth, today);
    if (rawBirth === '') problems.push('birth_date_missing');
    else if (birthDate === null) problems.push('birth_date_invalid');
    if (problems.length > 0 || birthDate === null) {
      errors.push({ row: index + 2, problems });
      return;
    }
    entries.push({
      id_number: idNumber,
      birth_date: birthDate,
      document_number: optional(row, 'document_number')?.toUpperCase() ?? null,
      first_name: optional(row, 'first_name'),
      last_name: optional(row, 'last_name'),
    });
  });
  return { ok: true, entries, errors, preview: rows.slice(0, previewRows), header };
}

/** Why a chosen file is refused before it is read (spec §5: the watchlist file is csv, at most 10 MB). */
export type WatchlistFileRefusal = 'file_too_large' | 'not_csv';

const CSV_TYPES = ['', 'text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel', 'text/x-csv'];

/** Refuses a file by its size and what it says it is, before a byte of it is read or sent. */
export function refuseWatchlistFile(file: {
  name: string;
  size: number;
  type: string;
}): WatchlistFileRefusal | null {
  if (file.size > WATCHLIST_MAX_BYTES) return 'file_too_large';
  const csvName = /\.(csv|txt)$/i.test(file.name);
  if (!csvName || !CSV_TYPES.includes(file.type.toLowerCase().split(';')[0]?.trim() ?? '')) return 'not_csv';
  return null;
}

/** What the preview shows of a watchlist file: its first rows and how many rows are valid and invalid. */
export type WatchlistPreview =
  | {
      ok: true;
      header: string[];
      rows: string[][];
      valid: number;
      invalid: number;
      /** The first invalid rows (line and problems), at most 20. */
      errors: WatchlistRowError[];
    }
  | { ok: false; problem: WatchlistFileProblem | 'not_utf8'; line?: number };

/** The preview of a watchlist file's bytes (read in a worker: a 10 MB file is parsed off the page's thread). */
export function previewWatchlist(bytes: ArrayBuffer, previewRows = 5, today = new Date()): WatchlistPreview {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problem: 'not_utf8' };
  }
  const parsed = parseWatchlist(text, previewRows, today);
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    header: parsed.header,
    rows: parsed.preview,
    valid: parsed.entries.length,
    invalid: parsed.errors.length,
    errors: parsed.errors.slice(0, 20),
  };
}
