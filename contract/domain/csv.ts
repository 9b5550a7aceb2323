// CSV (RFC 4180) for the audit export, the bulk import and the watchlist upload (spec §5 watchlist csv): a parser
// that understands quoted fields, doubled quotes, line breaks inside quotes, CRLF or LF, a UTF-8 BOM and `;` or
// `,`; and a writer whose cells can never start a formula in a spreadsheet (OWASP CSV injection: a cell starting
// with =, +, -, @, tab or carriage return gets a single quote in front).
// Not papaparse: it guesses one line ending per file (a file mixing CRLF and LF is misread), takes a quote inside an
// unquoted field or a space after a closing quote as text, drops a record of one empty quoted field, names records
// where the watchlist's errors name lines, and has no bound on a record (the watchlist upload refuses a line past
// its limit after at most that many characters, an unclosed quote included). Its unparse quotes every neutralised
// cell and every cell with a leading or trailing space: other bytes than the exports'.

export const CSV_BOM = '\uFEFF';

export type CsvSyntaxCode = 'unterminated_quote' | 'stray_quote' | 'line_too_long';

export class CsvSyntaxError extends Error {
  constructor(
    readonly code: CsvSyntaxCode,
    /** The line of the problem; for line_too_long, the line its row starts on. */
    readonly line: number,
  ) {
    super(`${code} at line ${line}`);
    this.name = 'CsvSyntaxError';
  }
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** The cell as a spreadsheet may read it: a formula start is neutralised with a leading single quote. */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One cell: neutralised, then quoted when it holds the delimiter, a quote, CR or LF (quotes doubled). */
export function csvCell(value: string | number | boolean | null | undefined, delimiter = ','): string {
  const text = neutraliseFormula(value === null || value === undefined ? '' : String(value));
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record ending with CRLF (RFC 4180). */
export function csvRow(
  cells: readonly (string | number | boolean | null | undefined)[],
  delimiter = ',',
): string {
  return `${cells.map((cell) => csvCell(cell, delimiter)).join(delimiter)}\r\n`;
}

/** `;` when the first line (outside quotes) has more semicolons than commas, else `,`. */
export function detectDelimiter(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas++;
    else if (!quoted && char === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * The records of a CSV text (BOM dropped; delimiter detected unless given). A final line break does not make an
 * empty record; wholly empty lines are skipped. Throws CsvSyntaxError on an unterminated quoted field or on a quote
 * inside an unquoted field.
 */
export function parseCsv(input: string, delimiter?: ',' | ';'): string[][] {
  const reader = new CsvReader(delimiter ? { delimiter } : {});
  const records = reader.push(input);
  for (const record of reader.end()) records.push(record);
  return records;
}

export interface CsvReaderOptions {
  /** Detected from the first line (as detectDelimiter) when not given. */
  delimiter?: ',' | ';';
  /**
   * The most characters a record may have, its quoted line breaks included and its final line break not: one
   * more is a CsvSyntaxError line_too_long naming the line it starts on, thrown as soon as it is read. Without
   * it, a file of one endless line (or an unclosed quote) would be read whole before anything is said.
   */
  maxRecordChars?: number;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * parseCsv as text arrives: push() each piece (any split, even inside a quoted field or between CR and LF) and
 * get back the records it completed, then end(). The same records and the same errors as parseCsv of the whole
 * text; the work of a push is bounded by its piece, and a record past maxRecordChars is refused after at most that
 * many characters of it.
 */
export class CsvReader {
  private delimiter: number | null;
  private readonly max: number;
  /** Text held until the first line break says which delimiter the file uses. */
  private pending = '';
  private detection = { quoted: false, commas: 0, semicolons: 0 };
  private started = false;
  private record: string[] = [];
  private field = '';
  private atStart = true;
  /** The current record has a quoted field (a record of one empty quoted field is kept). */
  private quoted = false;
  private inQuotes = false;
  /** A quote inside a quoted field was the last character read: the next one says whether it closes. */
  private quoteAtEnd = false;
  /** A quoted field just closed: only a delimiter, a line break or the end may follow. */
  private closed = false;
  /** A CR ended the last record: an LF right after it belongs to it. */
  private afterCr = false;
  private line = 1;
  private quoteLine = 1;
  private recordLine = 1;
  private recordChars = 0;

  constructor(options: CsvReaderOptions = {}) {
    this.delimiter = options.delimiter ? options.delimiter.charCodeAt(0) : null;
    this.max = options.maxRecordChars ?? Number.POSITIVE_INFINITY;
  }

  /** Reads the next piece of text; returns the records it completed. */
  push(text: string): string[][] {
    const out: string[][] = [];
    let piece = text;
    if (!this.started && piece.length > 0) {
      this.started = true;
      if (piece.startsWith(CSV_BOM)) piece = piece.slice(1);
    }
    if (this.delimiter === null) {
      // A first line past the limit is refused as such, whatever its delimiter would have been.
      const room = this.max - this.pending.length + 1;
      const decided = this.detect(room < piece.length ? piece.slice(0, room) : piece);
      if (!decided && this.pending.length + piece.length > this.max) {
        throw new CsvSyntaxError('line_too_long', 1);
      }
      this.pending += piece;
      if (!decided) return out;
      piece = this.pending;
      this.pending = '';
      this.delimiter = this.chosenDelimiter();
    }
    this.read(piece, out);
    return out;
  }

  /** The end of the text: the record it completes, if any. */
  end(): string[][] {
    const out: string[][] = [];
    if (this.delimiter === null) {
      this.delimiter = this.chosenDelimiter();
      const held = this.pending;
      this.pending = '';
      this.read(held, out);
    }
    if (this.quoteAtEnd) {
      this.quoteAtEnd = false;
      this.inQuotes = false;
      this.closed = true;
    }
    if (this.inQuotes) throw new CsvSyntaxError('unterminated_quote', this.quoteLine);
    if (!this.atStart || this.record.length > 0 || this.quoted) this.endRecord(out);
    return out;
  }

  /** detectDelimiter over the text so far; true once its first line has ended. */
  private detect(text: string): boolean {
    const state = this.detection;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === QUOTE) state.quoted = !state.quoted;
      else if (!state.quoted && (code === LF || code === CR)) return true;
      else if (!state.quoted && code === 0x2c) state.commas++;
      else if (!state.quoted && code === 0x3b) state.semicolons++;
    }
    return false;
  }

  private chosenDelimiter(): number {
    return (this.detection.semicolons > this.detection.commas ? ';' : ',').charCodeAt(0);
  }

  private endRecord(out: string[][]) {
    this.record.push(this.field);
    if (!(this.record.length === 1 && this.field === '' && !this.quoted)) out.push(this.record);
    this.record = [];
    this.field = '';
    this.atStart = true;
    this.quoted = false;
  }

  /** Counts `n` more characters of the current record; past the limit, the record is refused. */
  private count(n: number) {
    this.recordChars += n;
    if (this.recordChars > this.max) throw new CsvSyntaxError('line_too_long', this.recordLine);
  }

  /** At most this many characters more fit in the record (one more is read, to be refused). */
  private room(): number {
    return this.max - this.recordChars + 1;
  }

  private read(text: string, out: string[][]) {
    const delimiter = this.delimiter as number;
    const n = text.length;
    let i = 0;
    while (i < n) {
      const code = text.charCodeAt(i);
      if (this.afterCr) {
        this.afterCr = false;
        if (code === LF) {
          i++;
          continue;
        }
      }
      if (this.quoteAtEnd) {
        this.quoteAtEnd = false;
        if (code === QUOTE) {
          this.field += '"';
          this.count(1);
          i++;
          continue;
        }
        this.inQuotes = false;
        this.closed = true;
      }
      if (this.inQuotes) {
        // Up to the next quote, counting the line breaks inside the field.
        const stop = Math.min(n, i + this.room());
        let j = i;
        while (j < stop) {
          const inner = text.charCodeAt(j);
          if (inner === QUOTE) break;
          if (inner === LF) this.line++;
          j++;
        }
        this.field += text.slice(i, j);
        this.count(j - i);
        i = j;
        if (i < n && text.charCodeAt(i) === QUOTE) {
          this.count(1);
          i++;
          if (i >= n) this.quoteAtEnd = true;
          else if (text.charCodeAt(i) === QUOTE) {
            this.field += '"';
            this.count(1);
            i++;
          } else {
            this.inQuotes = false;
            this.closed = true;
          }
        }
        continue;
      }
      if (this.closed) {
        this.closed = false;
        if (code !== delimiter && code !== CR && code !== LF)
          throw new CsvSyntaxError('stray_quote', this.line);
      }
      if (code === QUOTE && this.atStart) {
        this.quoteLine = this.line;
        this.atStart = false;
        this.quoted = true;
        this.inQuotes = true;
        this.count(1);
        i++;
        continue;
      }
      if (code === delimiter) {
        this.record.push(this.field);
        this.field = '';
        this.atStart = true;
        this.count(1);
        i++;
        continue;
      }
      if (code === CR || code === LF) {
        this.endRecord(out);
        this.line++;
        this.recordLine = this.line;
        this.recordChars = 0;
        this.afterCr = code === CR;
        i++;
        continue;
      }
      if (code === QUOTE) throw new CsvSyntaxError('stray_quote', this.line);
      // A run of plain characters.
      const stop = Math.min(n, i + this.room());
      let j = i + 1;
      while (j < stop) {
        const next = text.charCodeAt(j);
        if (next === delimiter || next === CR || next === LF || next === QUOTE) break;
        j++;
      }
      this.field += text.slice(i, j);
      this.atStart = false;
      this.count(j - i);
      i = j;
    }
  }
}
