import { describe, expect, it } from 'vitest';
import {
  KEPT_ROW_ERRORS,
  parseWatchlist,
  previewWatchlist,
  refuseWatchlistFile,
  WATCHLIST_MAX_BYTES,
  WATCHLIST_MAX_LINE_CHARS,
  WatchlistReader,
  watchlistDate,
} from './watchlist';

const TODAY = new Date('2026-11-23T12:00:00Z');

describe('watchlist csv', () => {
  it('reads a ; file with a BOM, Spanish headers, quoted names and European dates', () => {
    const out = parseWatchlist(
      '\uFEFFDNI;Fecha nacimiento;Nombre;Apellidos\r\n12345678z;01/02/1980;"Ana; María";"Pérez ""la"""\r\n',
      5,
      TODAY,
    );
    expect(out).toMatchObject({
      ok: true,
      errors: [],
      entries: [
        {
          id_number: '12345678Z',
          birth_date: '1980-02-01',
          first_name: 'Ana; María',
          last_name: 'Pérez "la"',
        },
      ],
    });
  });

  it('reports each bad row with its line and problems, keeping the good ones apart', () => {
    const out = parseWatchlist(
      'id_number,birth_date\n12345678Z,1980-02-30\n,1990-01-01\nX1234567L,\n8!,2030-01-01\nY7654321G,1975-12-31\n',
      5,
      TODAY,
    );
    if (!out.ok) throw new Error('expected a parse');
    expect(out.entries.map((entry) => entry.id_number)).toEqual(['Y7654321G']);
    expect(out.errors).toEqual([
      { row: 2, problems: ['birth_date_invalid'] },
      { row: 3, problems: ['id_number_missing'] },
      { row: 4, problems: ['birth_date_missing'] },
      { row: 5, problems: ['id_number_invalid', 'birth_date_invalid'] },
    ]);
  });

  it('counts every invalid row and keeps the first ones with their problems', () => {
    const bad = Array.from({ length: KEPT_ROW_ERRORS + 150 }, (_, i) => `X${i}!,31/02/1980`).join('\n');
    const out = parseWatchlist(`id_number,birth_date\n${bad}\nY7654321G,1975-12-31\n`, 5, TODAY);
    if (!out.ok) throw new Error('expected a parse');
    expect(out.invalid).toBe(KEPT_ROW_ERRORS + 150);
    expect(out.errors).toHaveLength(KEPT_ROW_ERRORS);
    expect(out.errors[0]).toEqual({ row: 2, problems: ['id_number_invalid', 'birth_date_invalid'] });
    expect(out.entries.map((entry) => entry.id_number)).toEqual(['Y7654321G']);
  });

  it('refuses malformed files: empty, header only, missing columns, unterminated and stray quotes', () => {
    expect(parseWatchlist('', 5, TODAY)).toEqual({ ok: false, problem: 'empty' });
    expect(parseWatchlist('id_number,birth_date\n', 5, TODAY)).toEqual({ ok: false, problem: 'empty' });
    expect(parseWatchlist('name,surname\nA,B\n', 5, TODAY)).toEqual({
      ok: false,
      problem: 'missing_columns',
    });
    expect(parseWatchlist('id_number,birth_date\n"12345678Z,1980-01-01\n', 5, TODAY)).toMatchObject({
      ok: false,
      problem: 'unterminated_quote',
      line: 2,
    });
    expect(parseWatchlist('id_number,birth_date\n123"45678Z,1980-01-01\n', 5, TODAY)).toMatchObject({
      ok: false,
      problem: 'stray_quote',
    });
    expect(parseWatchlist('\u0000\u0001PK\u0003\u0004binary', 5, TODAY)).toMatchObject({ ok: false });
  });

  it('refuses a row longer than WATCHLIST_MAX_LINE_CHARS, naming its line, and a quote left open as long', () => {
    const header = 'id_number,birth_date,first_name\n';
    const fits = `12345678Z,1980-01-01,${'a'.repeat(WATCHLIST_MAX_LINE_CHARS - 21)}\n`;
    expect(fits.length - 1).toBe(WATCHLIST_MAX_LINE_CHARS);
    expect(parseWatchlist(header + fits, 5, TODAY)).toMatchObject({ ok: true, errors: [] });
    const long = `12345678Z,1980-01-01,${'a'.repeat(WATCHLIST_MAX_LINE_CHARS - 20)}\n`;
    expect(parseWatchlist(`${header}${fits}${long}${fits}`, 5, TODAY)).toEqual({
      ok: false,
      problem: 'line_too_long',
      line: 3,
    });
    // A file of one 9 MB line (no line break at all) and an unclosed quote running to the end of the file.
    expect(parseWatchlist('a'.repeat(9 * 1024 * 1024), 5, TODAY)).toEqual({
      ok: false,
      problem: 'line_too_long',
      line: 1,
    });
    expect(parseWatchlist(`${header}"12345678Z,${'x\n'.repeat(5000)}`, 5, TODAY)).toEqual({
      ok: false,
      problem: 'line_too_long',
      line: 2,
    });
  });

  it('reads the same piece by piece, and stops at the first problem of the file', () => {
    const text =
      '\uFEFFDNI;Fecha nacimiento;Nombre\r\n12345678z;01/02/1980;"Ana;\r\nMaría"\r\nbad;1980-01-01;x\r\nY7654321G;1975-12-31;\r\n';
    const whole = parseWatchlist(text, 5, TODAY);
    for (const size of [1, 2, 3, 7, 64]) {
      const reader = new WatchlistReader({ today: TODAY });
      for (let i = 0; i < text.length; i += size) expect(reader.push(text.slice(i, i + size))).toBe(true);
      expect(reader.end()).toEqual(whole);
    }
    const reader = new WatchlistReader({ today: TODAY, maxLineChars: 100 });
    expect(reader.push('id_number,birth_date\n12345678Z,1980-01-01\n')).toBe(true);
    expect(reader.push('b'.repeat(101))).toBe(false);
    // Once refused, the rest of the file is not read at all.
    expect(reader.push('\n12345678Z,1980-01-01\n')).toBe(false);
    expect(reader.end()).toEqual({ ok: false, problem: 'line_too_long', line: 3 });
  });

  it('accepts only real past dates', () => {
    expect(watchlistDate('2024-02-29', TODAY)).toBe('2024-02-29');
    expect(watchlistDate('2023-02-29', TODAY)).toBeNull();
    expect(watchlistDate('2027-01-01', TODAY)).toBeNull();
    expect(watchlistDate('1/2/1980', TODAY)).toBeNull();
  });
});

describe('refuseWatchlistFile and previewWatchlist', () => {
  it('refuses more than 10 MB and what is not a csv, before reading it', () => {
    expect(refuseWatchlistFile({ name: 'big.csv', size: 12 * 1024 * 1024, type: 'text/csv' })).toBe(
      'file_too_large',
    );
    expect(refuseWatchlistFile({ name: 'ok.csv', size: WATCHLIST_MAX_BYTES, type: 'text/csv' })).toBeNull();
    expect(refuseWatchlistFile({ name: 'photo.png', size: 4000, type: 'image/png' })).toBe('not_csv');
    expect(refuseWatchlistFile({ name: 'photo.csv', size: 4000, type: 'image/png' })).toBe('not_csv');
    expect(refuseWatchlistFile({ name: 'list.CSV', size: 10, type: '' })).toBeNull();
    expect(refuseWatchlistFile({ name: 'list.csv', size: 10, type: 'application/vnd.ms-excel' })).toBeNull();
  });

  it('previews the first rows and counts valid and invalid ones', () => {
    const text = '\uFEFFdni;fecha_nacimiento\n12345678Z;01/01/1980\nX;1980-01-01\n87654321X;31/02/1980\n';
    const preview = previewWatchlist(new TextEncoder().encode(text).buffer as ArrayBuffer, 2);
    expect(preview).toEqual({
      ok: true,
      header: ['dni', 'fecha_nacimiento'],
      rows: [
        ['12345678Z', '01/01/1980'],
        ['X', '1980-01-01'],
      ],
      valid: 1,
      invalid: 2,
      errors: [
        { row: 3, problems: ['id_number_invalid'] },
        { row: 4, problems: ['birth_date_invalid'] },
      ],
    });
  });

  it('says what is wrong with a file that is not a watchlist', () => {
    const bytes = (value: string | number[]) =>
      (typeof value === 'string' ? new TextEncoder().encode(value) : new Uint8Array(value))
        .buffer as ArrayBuffer;
    expect(previewWatchlist(bytes([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]))).toEqual({
      ok: false,
      problem: 'not_utf8',
    });
    expect(previewWatchlist(bytes('name;surname\nAne;Etxe\n'))).toEqual({
      ok: false,
      problem: 'missing_columns',
    });
    expect(previewWatchlist(bytes('dni;fecha_nacimiento\n"12345678Z;01/01/1980\n'))).toMatchObject({
      ok: false,
      problem: 'unterminated_quote',
    });
    expect(previewWatchlist(bytes(`dni;fecha_nacimiento\n${'9'.repeat(5000)};01/01/1980\n`))).toEqual({
      ok: false,
      problem: 'line_too_long',
      line: 2,
    });
  });
});
