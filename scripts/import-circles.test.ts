import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCircles, formatCircles, importGraph, relativeImports } from './import-circles';

// Each tree is planted in a folder of its own under the system's temporary folder, never in the checked folders,
// so that the real check (npm run lint) never sees them.
let root: string | undefined;

function plant(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'import-circles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const circlesOf = (files: Record<string, string>) => findCircles(importGraph(plant(files)));

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe('import circles', () => {
  it('finds none in a tree whose imports only go down', () => {
    expect(
      circlesOf({
        'server/app.ts':
          "import { rule } from '../contract/rules';\nexport const app = () => import('./lazy');",
        'server/lazy.ts': "import type { Rule } from '../contract/rules';\nexport const x: Rule = 1;",
        'contract/rules.ts': 'export type Rule = number;\nexport const rule = 1;',
      }),
    ).toEqual([]);
  });

  it('finds a circle closed by a type-only import, and prints it', () => {
    const circles = circlesOf({
      'server/context.ts':
        "import type { Visit } from './visits/routes';\nexport interface Deps { v?: Visit }",
      'server/visits/routes.ts':
        "import type { Deps } from '../context';\nexport type Visit = { deps: Deps };",
    });
    expect(circles).toEqual([['server/context.ts', 'server/visits/routes.ts', 'server/context.ts']]);
    expect(formatCircles(circles, 2)).toContain(
      'server/context.ts → server/visits/routes.ts → server/context.ts',
    );
  });

  it('finds a circle closed by a lazy import()', () => {
    expect(
      circlesOf({
        'src/engine.ts': "export const load = () => import('./reference/engine');",
        'src/reference/engine.ts': "import { load } from '../engine';\nexport const again = load;",
      }),
    ).toEqual([['src/engine.ts', 'src/reference/engine.ts', 'src/engine.ts']]);
  });

  it('follows a circle across the checked folders, through a re-export and a .js specifier', () => {
    expect(
      circlesOf({
        'machines/a.machine.ts': "export { b } from '../tests/b.js';",
        'tests/b.ts': "import { c } from '../scripts/c';\nexport const b = c;",
        'scripts/c.mjs': "import { a } from '../machines/a.machine.ts';\nexport const c = a;",
      }),
    ).toEqual([['machines/a.machine.ts', 'tests/b.ts', 'scripts/c.mjs', 'machines/a.machine.ts']]);
  });

  it('takes no import from a comment or a string, and none that is not relative', () => {
    expect(
      relativeImports(
        "// import './commented';\nconst s = \"import('./quoted')\";\nimport { Hono } from 'hono';\nexport type T = import('./typed').T;",
      ),
    ).toEqual(['./typed']);
  });
});
