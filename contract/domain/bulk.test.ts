import { describe, expect, it } from 'vitest';
import { BULK_MAX_ROWS, type BulkRow, checkRows, metadataKindOf, parseMetadata, resultsCsv } from './bulk';
import { parseCsv } from './csv';

const header = 'email,first_name,last_name,acs_id,image\r\n';
const good = (n: number) => `p${n}@example.test,Ane,Etxeberria,ACS-${n},p${n}.jpg\r\n`;

function rowsOf(text: string, kind: 'json' | 'csv' = 'csv'): BulkRow[] {
  const parsed = parseMetadata(text, kind);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problem));
  return parsed.rows;
}

describe('parseMetadata', () => {
  it('reads a CSV with its header, quoted cells and a BOM, numbering rows from 1', () => {
    const rows = rowsOf(`\uFEFF${header}${good(1)}"p2@example.test","Miren, Jr","Aranburu",ACS-2,p2.jpg\r\n`);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      row: 2,
      email: 'p2@example.test',
      first_name: 'Miren, Jr',
      acs_id: 'ACS-2',
    });
  });

  it('reads `;` CSVs and columns in any order, ignoring unknown columns', () => {
    const rows = rowsOf('image;acs_id;EMAIL;first_name;last_name;notes\np1.png;7;a@b.es;Jon;Ruiz;x\n');
    expect(rows[0]).toEqual({
      row: 1,
      email: 'a@b.es',
      first_name: 'Jon',
      last_name: 'Ruiz',
      acs_id: '7',
      image: 'p1.png',
      username: '',
    });
  });

  it('reads JSON arrays and { users: [...] }', () => {
    const list = [{ email: 'a@b.es', first_name: 'Jon', last_name: 'Ruiz', acs_id: 7, image: 'a.jpg' }];
    expect(rowsOf(JSON.stringify(list), 'json')[0]?.acs_id).toBe('7');
    expect(rowsOf(JSON.stringify({ users: list }), 'json')).toHaveLength(1);
  });

  it('refuses what is not JSON or CSV, naming the element when it can', () => {
    expect(parseMetadata('{"users": 3', 'json')).toEqual({
      ok: false,
      problem: { code: 'metadata_invalid' },
    });
    expect(parseMetadata('[{"email":"a@b.es"}, 3]', 'json')).toEqual({
      ok: false,
      problem: { code: 'metadata_invalid', row: 2 },
    });
    expect(parseMetadata(`${header}"unterminated,x,y,z,w\n`, 'csv')).toEqual({
      ok: false,
      problem: { code: 'metadata_invalid' },
    });
    expect(parseMetadata('email,image\na@b.es,a.jpg\n', 'csv')).toEqual({
      ok: false,
      problem: { code: 'metadata_columns', missing: ['first_name', 'last_name', 'acs_id'] },
    });
    expect(parseMetadata(header, 'csv')).toEqual({ ok: false, problem: { code: 'metadata_empty' } });
    expect(parseMetadata('[]', 'json')).toEqual({ ok: false, problem: { code: 'metadata_empty' } });
  });

  it('takes 1000 elements and refuses 1001', () => {
    const many = (n: number) => header + Array.from({ length: n }, (_, i) => good(i + 1)).join('');
    expect(parseMetadata(many(BULK_MAX_ROWS), 'csv').ok).toBe(true);
    expect(parseMetadata(many(BULK_MAX_ROWS + 1), 'csv')).toEqual({
      ok: false,
      problem: { code: 'too_many_elements', count: 1001 },
    });
  });

  it('tells JSON from CSV by name, then by content', () => {
    expect(metadataKindOf('people.JSON', 'email')).toBe('json');
    expect(metadataKindOf('people.csv', '[')).toBe('csv');
    expect(metadataKindOf('people.txt', '  [{}]')).toBe('json');
    expect(metadataKindOf('people', 'email,image')).toBe('csv');
  });
});

describe('checkRows', () => {
  const pictures = new Map([
    ['p1.jpg', 20_000],
    ['p2.jpg', 20_000],
    ['small.jpg', 6_827],
    ['large.png', 6_990_509],
  ]);

  it('passes good rows', () => {
    expect(checkRows(rowsOf(header + good(1) + good(2)), { acsIdSchema: 'string64', pictures })).toEqual([]);
  });

  it('names the row and field of each problem', () => {
    const text =
      header +
      good(1) +
      ',Ane,Etxeberria,ACS-9,p2.jpg\n' +
      'not-an-email,,Etxeberria,has space,p2.gif\n' +
      'P1@example.test,Ane,,ACS-1,absent.jpg\n' +
      'q@example.test,Ane,Ruiz,ACS-5,small.jpg\n' +
      'r@example.test,Ane,Ruiz,ACS-6,large.png\n' +
      's@example.test,Ane,Ruiz,ACS-7,\n';
    expect(checkRows(rowsOf(text), { acsIdSchema: 'string64', pictures })).toEqual([
      { row: 2, field: 'email', code: 'required' },
      { row: 3, field: 'email', code: 'wrong_format' },
      { row: 3, field: 'first_name', code: 'required' },
      { row: 3, field: 'acs_id', code: 'wrong_format' },
      { row: 3, field: 'image', code: 'image_wrong_type' },
      { row: 4, field: 'email', code: 'duplicate_row' },
      { row: 4, field: 'last_name', code: 'required' },
      { row: 4, field: 'acs_id', code: 'duplicate_row' },
      { row: 4, field: 'image', code: 'image_not_found' },
      { row: 5, field: 'image', code: 'delegated_image_too_small' },
      { row: 6, field: 'image', code: 'delegated_image_too_large' },
      { row: 7, field: 'image', code: 'required' },
    ]);
  });

  it('checks acs_id against a Wiegand schema (1–65535; 0042 repeats 42)', () => {
    const text = `${header}a@b.es,A,B,42,p1.jpg\nc@b.es,A,B,0042,p2.jpg\nd@b.es,A,B,65536,p2.jpg\n`;
    expect(checkRows(rowsOf(text), { acsIdSchema: 'wiegand' })).toEqual([
      { row: 2, field: 'acs_id', code: 'duplicate_row' },
      { row: 3, field: 'acs_id', code: 'wiegand_range' },
    ]);
  });

  it('does not look pictures up without a listing', () => {
    expect(checkRows(rowsOf(`${header}a@b.es,A,B,1,absent.jpg\n`), { acsIdSchema: 'string64' })).toEqual([]);
  });
});

describe('resultsCsv', () => {
  it('writes one CRLF record per row after a BOM and the header, neutralising formulas', () => {
    const csv = resultsCsv(
      [
        { row: 1, email: 'a@b.es', outcome: 'accepted', reason: null, code: 0, user_id: 'u-1' },
        {
          row: 2,
          email: '=HYPERLINK("x")@b.es',
          outcome: 'rejected',
          reason: 'email_already_in_use',
          code: 0,
        },
      ],
      ['row', 'email', 'outcome', 'reason', 'user id'],
      (r) => ({ outcome: r.outcome, reason: r.reason ?? '' }),
    );
    expect(csv.startsWith('\uFEFFrow,email,outcome,reason,user id\r\n')).toBe(true);
    expect(parseCsv(csv)).toEqual([
      ['row', 'email', 'outcome', 'reason', 'user id'],
      ['1', 'a@b.es', 'accepted', '', 'u-1'],
      ['2', `'=HYPERLINK("x")@b.es`, 'rejected', 'email_already_in_use', ''],
    ]);
  });
});
