import type { OutputBundle } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { addCompileHints, COMPILE_HINT } from './vite-compile-hints';

const bundle = () =>
  ({
    'assets/index-a.js': {
      type: 'chunk',
      code: 'const __vite__mapDeps=(i)=>i;import"./first-screen-b.js";',
      map: { mappings: 'AAAA,CAAC' },
    },
    'assets/first-screen-b.js': { type: 'chunk', code: 'export const x=1;', map: null },
    'assets/index-c.css': { type: 'asset', source: 'body{margin:0}' },
  }) as unknown as OutputBundle;

describe('the compile hint of the build', () => {
  it("is every chunk's first line, before Vite's header; a source map follows it down one line; assets are left as they are", () => {
    const out = bundle();
    addCompileHints(out);
    const entry = out['assets/index-a.js'] as { code: string; map: { mappings: string } };
    expect(entry.code).toBe(`${COMPILE_HINT}const __vite__mapDeps=(i)=>i;import"./first-screen-b.js";`);
    expect(entry.map.mappings).toBe(';AAAA,CAAC');
    expect((out['assets/first-screen-b.js'] as { code: string }).code).toBe(
      `${COMPILE_HINT}export const x=1;`,
    );
    expect(out['assets/index-c.css']).toEqual({ type: 'asset', source: 'body{margin:0}' });
    expect(COMPILE_HINT).toBe('//# allFunctionsCalledOnLoad\n');
  });

  it('is added once, however many times the bundle goes through', () => {
    const out = bundle();
    addCompileHints(out);
    addCompileHints(out);
    const entry = out['assets/index-a.js'] as { code: string; map: { mappings: string } };
    expect(entry.code.split(COMPILE_HINT)).toHaveLength(2);
    expect(entry.map.mappings).toBe(';AAAA,CAAC');
  });
});
