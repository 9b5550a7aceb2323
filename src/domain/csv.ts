// CSV (RFC 4180) for the audit export and the watchlist upload (spec §5 watchlist csv; issue 13): a parser that
// understands quoted fields, doubled quotes, line breaks inside quotes, CRLF or LF, a UTF-8 BOM and `;` or `,`;
// and a writer whose cells can never start a formula in a spreadsheet (OWASP CSV injection: a cell starting with
// =, +, -, @, tab or carriage return gets a single quote in front).

export const CSV_BOM = '\uFEFF';

export class CsvSyntaxError extends Error {
  constructor(
    readonly code: 'unterminated_quote' | 'stray_quote',
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
export function parseCsv(
  input: string,
  delimiter: ',' | ';' = detectDelimiter(input.replace(/^\uFEFF/, '')),
): string[][] {
  const text = input.startsWith(CSV_BOM) ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let i = 0;
  // atStart: nothing of the current field read yet; quoted: the current record had a quoted field.
  let atStart = true;
  let quoted = false;
  const endRecord = () => {
    record.push(field);
    if (!(record.length === 1 && field === '' && !quoted)) records.push(record);
    record = [];
    field = '';
    atStart = true;
    quoted = false;
  };
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '"' && atStart) {
      // A quoted field: up to the closing quote, doubled quotes are one quote.
      const startLine = line;
      atStart = false;
      quoted = true;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvSyntaxError('unterminated_quote', startLine);
        const inner = text[i] as string;
        if (inner === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (inner === '\n') line++;
        field += inner;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') {
        throw new CsvSyntaxError('stray_quote', line);
      }
      continue;
    }
    if (char === delimiter) {
      record.push(field);
      field = '';
      atStart = true;
      i++;
      continue;
    }
    if (char === '\r' || char === '\n') {
      endRecord();
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      continue;
    }
    if (char === '"') throw new CsvSyntaxError('stray_quote', line);
    field += char;
    atStart = false;
    i++;
  }
  if (!atStart || record.length > 0 || quoted) endRecord();
  return records;
}
