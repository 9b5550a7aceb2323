import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, csvCell, csvRow, detectDelimiter, parseCsv } from './csv';

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
