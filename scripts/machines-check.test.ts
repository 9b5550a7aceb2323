import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMachineSource, formatReport, isErrorKey, mentions, type Rule } from './machines-check';

const dir = 'scripts/fixtures/machines';
const check = (name: string) => {
  const file = join(dir, name);
  return checkMachineSource(readFileSync(file, 'utf8'), file);
};

describe('machines:check', () => {
  it('finds nothing wrong in a machine written as ARCHITECTURE.md asks', () => {
    expect(check('good.machine.ts')).toEqual([]);
  });

  const bad: [file: string, rules: Rule[], path: string, message: RegExp][] = [
    ['bad-warning', ['warning'], 'working.hint.hidden', /extractor warning: Unsupported property .*'source'/],
    ['bad-inline-assign', ['inline'], 'working.fetch.fetching', /entry: an inline assign/],
    ['bad-inline-action', ['inline'], 'working.hint.shown', /entry: an anonymous inline action \(Arrow/],
    ['bad-inline-guard', ['inline'], 'working.fetch.fetching', /onError: an anonymous inline guard/],
    ['bad-inline-actor', ['inline'], 'working.fetch.fetching', /invoke fetchThing: an inline actor/],
    ['bad-params', ['warning', 'params'], 'start', /params of guard 'hasLevel' are not a literal/],
    ['bad-machine-description', ['description'], '(machine)', /the machine has no description/],
    ['bad-screen-description', ['description'], 'start', /no description \(meta: screen Start\)/],
    [
      'bad-error-description',
      ['error-description'],
      'failed',
      /does not mention errorCode 'thing_unavailable'/,
    ],
  ];
  it.each(bad)('%s: reports exactly its one problem', (name, rules, path, message) => {
    const problems = check(`${name}.machine.ts`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ machine: 'bad', path, rules });
    expect(problems[0]?.message).toMatch(message);
    expect(problems[0]?.line).toBeGreaterThan(0);
  });

  it('has a fixture for every bad case and no stray one', () => {
    const files = readdirSync(dir).filter((name) => name.startsWith('bad-'));
    expect(files.sort()).toEqual(bad.map(([name]) => `${name}.machine.ts`).sort());
  });

  it('reports a description Stately cannot read, and a guard built by a call', () => {
    const good = readFileSync(join(dir, 'good.machine.ts'), 'utf8');
    const source = good
      .replace(
        "description: 'Start: the person presses Go.'",
        "description: 'Start: ' + 'the person presses Go.'",
      )
      .replace("guard: 'isLastTry'", "guard: not('isLastTry')");
    expect(checkMachineSource(source, 'x.ts')).toMatchObject([
      {
        path: 'start',
        rules: ['description'],
        message: expect.stringMatching(/not a string literal \(Binary/),
      },
      {
        path: 'working.fetch.fetching',
        rules: ['inline'],
        message: expect.stringMatching(/cannot name .*not\(\)/),
      },
    ]);
  });

  it('names a file it cannot read, or one without a machine', () => {
    expect(checkMachineSource('export const x = 1;', 'x.ts')).toMatchObject([
      { rules: ['parse'], message: 'the extractor finds no machine' },
    ]);
  });

  it('treats errorCode and any key ending in error as an error code, named as a word', () => {
    expect(['errorCode', 'uploadError', 'scanError', 'challengeError', 'error'].every(isErrorKey)).toBe(true);
    expect(isErrorKey('screen')).toBe(false);
    expect(mentions('Failed with underage (spec §8).', 'underage')).toBe(true);
    expect(mentions('Failed with not_underage.', 'underage')).toBe(false);
    expect(mentions('Ends in document-expired.', 'document-expired')).toBe(true);
  });

  it('lists file, line, state path and rule in its report', () => {
    const file = join(dir, 'bad-screen-description.machine.ts');
    const report = formatReport([{ file, problems: check('bad-screen-description.machine.ts') }]);
    expect(report).toContain(`✗ ${file}: 1 missing descriptions`);
    expect(report).toMatch(/bad-screen-description\.machine\.ts:\d+ {2}bad › start {2}\[description\]/);
  });

  it('exits 1 on a bad file and 0 on a good one', () => {
    const run = (name: string) => {
      try {
        execFileSync(process.execPath, ['--import', 'tsx', 'scripts/machines-check.ts', join(dir, name)], {
          stdio: 'pipe',
        });
        return 0;
      } catch (error) {
        return (error as { status: number }).status;
      }
    };
    expect(run('good.machine.ts')).toBe(0);
    expect(run('bad-params.machine.ts')).toBe(1);
  }, 30_000);
});
