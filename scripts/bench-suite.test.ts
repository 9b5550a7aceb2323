import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchSuite, suiteTable } from '../bench/suite';

const dir = mkdtempSync(join(tmpdir(), 'suite-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (date: string, commit: string, ok: boolean, steps: [string, number][]) =>
  JSON.stringify({
    date,
    commit,
    cores: 2,
    ci: true,
    ok,
    totalSeconds: steps.reduce((sum, [, s]) => sum + s, 0),
    steps: steps.map(([step, seconds]) => ({ step, seconds, result: ok ? 'ok' : 'FAILED (exit 1)' })),
  });

describe('the suite part of npm run bench', () => {
  it('reads the last complete npm test, with the complete runs before it, newest first', () => {
    const file = join(dir, 'steps.jsonl');
    writeFileSync(
      file,
      [
        run('2026-11-20T10:00:00.000Z', 'aaa1111', true, [
          ['lint', 20],
          ['test:e2e', 1900],
        ]),
        run('2026-11-21T10:00:00.000Z', 'bbb2222', true, [
          ['lint', 21],
          ['test:vitest', 300],
          ['test:e2e', 500],
        ]),
        '{"date": "2026-11-22T', // a run cut off while writing its line
        run('2026-11-23T10:00:00.000Z', 'ccc3333', false, [['lint', 5]]),
        '',
      ].join('\n'),
    );
    const suite = benchSuite(file);
    expect(suite.last?.commit).toBe('bbb2222');
    expect(suite.earlier.map((r) => r.commit)).toEqual(['aaa1111']);

    const table = suiteTable(suite);
    expect(table.headers).toEqual(['step', '2026-11-21 10:00 bbb2222', '2026-11-20 10:00 aaa1111']);
    expect(table.rows).toEqual([
      ['lint', '0 min 21 s', '0 min 20 s'],
      ['test:vitest', '5 min 00 s', '—'],
      ['test:e2e', '8 min 20 s', '31 min 40 s'],
      ['total', '13 min 41 s', '32 min 00 s'],
    ]);
  });

  it('has nothing to report before the first recorded run', () => {
    expect(benchSuite(join(dir, 'none.jsonl'))).toEqual({
      file: join(dir, 'none.jsonl'),
      last: undefined,
      earlier: [],
    });
  });
});
