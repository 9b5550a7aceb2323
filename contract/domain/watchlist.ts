// A prohibited-list (watchlist) csv (spec §3 Watchlist upload, §5 at most 10 MB): a header row naming the columns
// (id_number and birth_date required; document_number, first_name, last_name optional; Spanish names accepted), then
// one person a row. Read in the browser (a worker, for the preview) and again on the server, which stores the list
// only when every row is valid: never half-applied.
import { CsvReader, CsvSyntaxError } from './csv';

export const WATCHLIST_MAX_BYTES = 10 * 1024 * 1024;
/**
 * The longest row a watchlist may have, in characters (a person's ID number, birth date, document number and
 * names need a few hundred): a longer one refuses the file at that row, after reading no more of it.
 */
export const WATCHLIST_MAX_LINE_CHARS = 4096;

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

/** What can make a whole file unreadable as a watchlist (each has its words, watchlist.problem.<code>). */
export const WATCHLIST_FILE_PROBLEMS = [
  'empty',
  'missing_columns',
  'unterminated_quote',
  'stray_quote',
  'line_too_long',
] as const;

export type WatchlistFileProblem = (typeof WATCHLIST_FILE_PROBLEMS)[number];

export type WatchlistParse =
  | {
      ok: true;
      entries: WatchlistEntry[];
      /** The first KEPT_ROW_ERRORS invalid rows (what the screens and the API's answer name). */
      errors: WatchlistRowError[];
      /** Every invalid row. */
      invalid: number;
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
  const reader = new WatchlistReader({ previewRows, today });
  reader.push(text);
  return reader.end();
}

/**
 * Invalid rows kept with their problems; the rest are only counted. A 10 MB file of bad rows is some 400,000 of
 * them: kept, their objects made a heap whose garbage collection held the server's event loop over 100 ms.
 */
export const KEPT_ROW_ERRORS = 100;

export interface WatchlistReaderOptions {
  previewRows?: number;
  today?: Date;
  /** WATCHLIST_MAX_LINE_CHARS unless given. */
  maxLineChars?: number;
}

/**
 * parseWatchlist as the file arrives (the server reads an upload this way, piece by piece as it streams): push()
 * each piece of text, then end(). A piece's rows are validated as they complete; the first problem of the file
 * (a quote, a row longer than maxLineChars, no rows or no ID number and birth date columns) stops the reading and
 * push() returns false from then on.
 */
export class WatchlistReader {
  private readonly csv: CsvReader;
  private readonly previewRows: number;
  private readonly today: Date;
  private header: string[] | null = null;
  private columns: Record<keyof WatchlistEntry, number> | null = null;
  private rows = 0;
  private invalid = 0;
  private readonly entries: WatchlistEntry[] = [];
  private readonly errors: WatchlistRowError[] = [];
  private readonly preview: string[][] = [];
  private failure: { ok: false; problem: WatchlistFileProblem; line?: number } | null = null;

  constructor(options: WatchlistReaderOptions = {}) {
    this.previewRows = options.previewRows ?? 5;
    this.today = options.today ?? new Date();
    this.csv = new CsvReader({ maxRecordChars: options.maxLineChars ?? WATCHLIST_MAX_LINE_CHARS });
  }

  /** Reads the next piece of the file; false once the file is refused (the rest need not be read). */
  push(text: string): boolean {
    if (this.failure) return false;
    this.guard(() => {
      for (const record of this.csv.push(text)) if (!this.take(record)) return;
    });
    return this.failure === null;
  }

  /** The end of the file: the list, or why the file is refused. */
  end(): WatchlistParse {
    if (!this.failure) {
      this.guard(() => {
        for (const record of this.csv.end()) if (!this.take(record)) return;
      });
    }
    if (this.failure) return this.failure;
    if (!this.header || this.rows === 0) return { ok: false, problem: 'empty' };
    return {
      ok: true,
      entries: this.entries,
      errors: this.errors,
      invalid: this.invalid,
      preview: this.preview,
      header: this.header,
    };
  }

  private guard(read: () => void) {
    try {
      read();
    } catch (error) {
      if (!(error instanceof CsvSyntaxError)) throw error;
      this.failure = { ok: false, problem: error.code, line: error.line };
    }
  }

  /** One record: the header, or a row validated into an entry or an error; false once the file is refused. */
  private take(row: string[]): boolean {
    if (!this.header) {
      this.header = row;
      const names = row.map(normaliseHeader);
      const column = (field: keyof WatchlistEntry) =>
        names.findIndex((name) => ALIASES[field].includes(name));
      this.columns = {
        id_number: column('id_number'),
        birth_date: column('birth_date'),
        document_number: column('document_number'),
        first_name: column('first_name'),
        last_name: column('last_name'),
      };
      return true;
    }
    const columns = this.columns as Record<keyof WatchlistEntry, number>;
    // A header without the two columns: said once a row shows the file is not merely empty.
    if (columns.id_number < 0 || columns.birth_date < 0) {
      this.failure = { ok: false, problem: 'missing_columns' };
      return false;
    }
    const index = this.rows++;
    if (this.preview.length < this.previewRows) this.preview.push(row);
    const optional = (field: keyof WatchlistEntry) => {
      const at = columns[field];
      const value = at < 0 ? '' : (row[at] ?? '').trim();
      return value === '' ? null : value;
    };
    const problems: WatchlistRowProblem[] = [];
    const idNumber = (row[columns.id_number] ?? '').replace(/[\s-]/g, '').toUpperCase();
    const rawBirth = (row[columns.birth_date] ?? '').trim();
    if (idNumber === '') problems.push('id_number_missing');
    else if (!ID_NUMBER.test(idNumber)) problems.push('id_number_invalid');
    const birthDate = rawBirth === '' ? null : watchlistDate(rawBirth, this.today);
    if (rawBirth === '') problems.push('birth_date_missing');
    else if (birthDate === null) problems.push('birth_date_invalid');
    if (problems.length > 0 || birthDate === null) {
      this.invalid++;
      if (this.errors.length < KEPT_ROW_ERRORS) this.errors.push({ row: index + 2, problems });
      return true;
    }
    this.entries.push({
      id_number: idNumber,
      birth_date: birthDate,
      document_number: optional('document_number')?.toUpperCase() ?? null,
      first_name: optional('first_name'),
      last_name: optional('last_name'),
    });
    return true;
  }
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
    invalid: parsed.invalid,
    errors: parsed.errors.slice(0, 20),
  };
}
