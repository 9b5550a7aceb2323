import { describe, expect, it } from 'vitest';
import { benchArgs, PARTS } from '../bench/args';

describe('npm run bench arguments', () => {
  it('runs every part into bench/results/latest.json by default', () => {
    expect(benchArgs([])).toEqual({ parts: [...PARTS], out: 'bench/results/latest.json' });
  });

  it('runs only the parts named, in the bench order, into the file named', () => {
    expect(benchArgs(['--only', 'api,lighthouse', '--out', '/tmp/idle.json'])).toEqual({
      parts: ['lighthouse', 'api'],
      out: '/tmp/idle.json',
    });
    expect(benchArgs(['--only=bytes', '--out=x.json'])).toEqual({ parts: ['bytes'], out: 'x.json' });
  });

  it('names the screens Lighthouse runs on with --screens', () => {
    expect(benchArgs(['--only', 'lighthouse', '--screens', 'UserHome, MyVisits'])).toEqual({
      parts: ['lighthouse'],
      out: 'bench/results/latest.json',
      screens: ['UserHome', 'MyVisits'],
    });
    expect(benchArgs(['--screens=Welcome']).screens).toEqual(['Welcome']);
    expect(benchArgs([]).screens).toBeUndefined();
    expect(() => benchArgs(['--screens', 'UserHome,'])).toThrow(/--screens wants screen names/);
  });

  it('refuses a part or an argument it does not know', () => {
    expect(() => benchArgs(['--only', 'lighthouse,speed'])).toThrow(/unknown bench part speed/);
    expect(() => benchArgs(['--fast'])).toThrow(/unknown argument --fast/);
  });
});
