import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvReader, CsvSyntaxError, csvCell, csvRow, detectDelimiter, parseCsv } from './csv';

const FORMULA = /^[=+\-@\t\r]/;
const expected = (cell: string) => (FORMULA.test(cell) ? `'${cell}` : cell);

describe('csv writer', () => {
  it('quotes delimiters, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
  });

  it('neutralises every formula start with a single quote', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}1+1`).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  });

  it('property: any table round-trips through the parser, and no parsed cell can start a formula', () => {
    const cell = fc.string({
      unit: fc.constantFrom('a', 'ñ', ' ', ',', ';', '"', '\n', '\r', '=', '+', '-', '@', '\t', "'", '€'),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(',' as const, ';' as const),
        (rows, delimiter) => {
          const text = rows.map((row) => csvRow(row, delimiter)).join('');
          const parsed = parseCsv(text, delimiter);
          expect(parsed).toEqual(rows.map((row) => row.map(expected)));
          for (const row of parsed) for (const value of row) expect(value).not.toMatch(FORMULA);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('csv parser', () => {
  it('drops a BOM, reads CRLF and LF, quoted fields with line breaks, and skips blank lines', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x\ny","q""q"\n\nc,\n')).toEqual([
      ['a', 'b'],
      ['x\ny', 'q"q'],
      ['c', ''],
    ]);
  });

  it('detects ; or , from the first line', () => {
    expect(detectDelimiter('id;birth;x,y\n')).toBe(';');
    expect(detectDelimiter('"a;b;c",d\n')).toBe(',');
    expect(parseCsv('a;b\n1;2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('refuses an unterminated quote and a stray quote, naming the line', () => {
    expect(() => parseCsv('a,b\n"open,b\n')).toThrowError(CsvSyntaxError);
    try {
      parseCsv('a,b\nc,d"e\n');
    } catch (error) {
      expect(error).toMatchObject({ code: 'stray_quote', line: 2 });
    }
    expect(() => parseCsv('"a"b,c')).toThrowError(/stray_quote/);
  });
});

/** The parser as it read a whole text at once, character by character: the reference the streaming one must match. */
function wholeTextParse(
  input: string,
  delimiter = detectDelimiter(input.replace(/^\uFEFF/, '')),
): string[][] {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let i = 0;
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

/** The records, or the error as { code, line }. */
function outcome(read: () => string[][]): unknown {
  try {
    return read();
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { code: error.code, line: error.line };
    throw error;
  }
}

/** `text` pushed in pieces cut at `cuts` (positions, any order), then ended. */
function pushedInPieces(text: string, cuts: number[], options = {}): string[][] {
  const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const reader = new CsvReader(options);
  const records: string[][] = [];
  let from = 0;
  for (const cut of [...at, text.length]) {
    records.push(...reader.push(text.slice(from, cut)));
    from = cut;
  }
  records.push(...reader.end());
  return records;
}

describe('csv reader (streaming)', () => {
  const text = fc.string({
    unit: fc.constantFrom('a', 'b', ',', ';', '"', '\n', '\r', ' ', 'ñ', '\uFEFF'),
    maxLength: 60,
  });

  it('property: any text cut anywhere reads as the whole text did, records and errors alike', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 6 }), (input, cuts) => {
        expect(outcome(() => pushedInPieces(input, cuts))).toEqual(outcome(() => wholeTextParse(input)));
        expect(outcome(() => parseCsv(input))).toEqual(outcome(() => wholeTextParse(input)));
        for (const delimiter of [',', ';'] as const) {
          expect(outcome(() => pushedInPieces(input, cuts, { delimiter }))).toEqual(
            outcome(() => wholeTextParse(input, delimiter)),
          );
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('property: under the record limit nothing changes; past it, the record is refused at its first line', () => {
    fc.assert(
      fc.property(
        text,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: 1, max: 12 }),
        (input, cuts, max) => {
          const whole = outcome(() => wholeTextParse(input));
          const limited = outcome(() => pushedInPieces(input, cuts, { maxRecordChars: max }));
          if (Array.isArray(limited)) expect(limited).toEqual(whole);
          else if ((limited as { code: string }).code !== 'line_too_long') expect(limited).toEqual(whole);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses a record longer than the limit, naming the line it starts on, its quoted line breaks counted', () => {
    const reader = () => new CsvReader({ maxRecordChars: 10 });
    expect(pushedInPieces('a,b\n0123456789\n', [], { maxRecordChars: 10 })).toEqual([
      ['a', 'b'],
      ['0123456789'],
    ]);
    expect(() => reader().push('a,b\r\n\r\n01234567890\n')).toThrowError(
      expect.objectContaining({ code: 'line_too_long', line: 3 }),
    );
    expect(() => reader().push('a,b\n"12\n45\n789\n"\n')).toThrowError(
      expect.objectContaining({ code: 'line_too_long', line: 2 }),
    );
    // An unclosed quote is as long as the rest of the file: refused once it passes the limit.
    expect(() => reader().push('a,b\n"open')).not.toThrow();
    expect(() => pushedInPieces('a,b\n"open, and on and on', [], { maxRecordChars: 10 })).toThrowError(
      expect.objectContaining({ code: 'line_too_long', line: 2 }),
    );
  });

  it('refuses an endless first line on the piece that passes the limit, without waiting for the rest', () => {
    const reader = new CsvReader({ maxRecordChars: 4096 });
    const piece = 'a'.repeat(1000);
    // Four pieces fit (the delimiter is not known yet: the first line is held); the fifth passes the limit.
    for (let i = 0; i < 4; i++) expect(reader.push(piece)).toEqual([]);
    expect(() => reader.push(piece)).toThrowError(
      expect.objectContaining({ code: 'line_too_long', line: 1 }),
    );
    // A 9 MB line in 64 KB pieces: refused on the first one.
    const big = new CsvReader({ maxRecordChars: 4096 });
    expect(() => big.push('x'.repeat(64 * 1024))).toThrowError(
      expect.objectContaining({ code: 'line_too_long', line: 1 }),
    );
  });
});
