// Import circles across the house: every relative import of the folders below, static, type-only (`import type`,
// `export type … from`) and lazy (`import('…')`) alike, resolved to a file; any circle fails, printed file by file.
// Biome's noImportCycles runs too, but it did not see circles through type-only or lazy imports (it reported 0 with
// two present), and a lazy import that closes a circle still couples the two ends: neither moves without the other.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ParserPlugin, parse } from '@babel/parser';

export const CHECKED_FOLDERS = ['contract', 'machines', 'src', 'server', 'scripts', 'tests'];

const SOURCE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Declaration files hold types only, and are not where a circle would run. */
const DECLARATIONS = /\.d\.[mc]?ts$/;
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report']);
/** What a specifier without its extension, or naming the .js a .ts compiles to, may be on disk. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const COMPILED_TO: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

function sourceFiles(folder: string, into: string[] = []): string[] {
  if (!existsSync(folder)) return into;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) sourceFiles(path, into);
    else if (SOURCE.test(entry.name) && !DECLARATIONS.test(entry.name)) into.push(path);
  }
  return into;
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** The file a relative specifier names, as a bundler or tsx finds it; undefined when none is on disk. */
export function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/[?#].*$/, ''));
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext)];
  for (const [compiled, sources] of Object.entries(COMPILED_TO)) {
    if (base.endsWith(compiled))
      candidates.push(...sources.map((ext) => base.slice(0, -compiled.length) + ext));
  }
  candidates.push(...EXTENSIONS.map((ext) => join(base, `index${ext}`)));
  return candidates.find(isFile);
}

/** The parser's plugins for a file: TypeScript for .ts (where `<T>x` is a cast, not JSX), JSX for .tsx and .jsx. */
function pluginsOf(file: string): ParserPlugin[] {
  if (/\.[mc]?ts$/.test(file)) return ['typescript'];
  if (file.endsWith('.tsx')) return ['typescript', 'jsx'];
  return ['jsx'];
}

const specifierOf = (node: unknown): string | undefined => {
  const literal = node as { type?: string; value?: unknown } | null | undefined;
  return literal?.type === 'StringLiteral' && typeof literal.value === 'string' ? literal.value : undefined;
};

/** The specifier a node imports, when it is an import: static, type-only, re-export, lazy, `import('…').T`, require. */
function importedBy(node: Record<string, unknown>): string | undefined {
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportNamedDeclaration':
    case 'ExportAllDeclaration':
      return specifierOf(node.source);
    case 'ImportExpression':
      return specifierOf(node.source);
    case 'TSImportType':
      return specifierOf(node.argument) ?? specifierOf((node.argument as { literal?: unknown })?.literal);
    case 'CallExpression': {
      const callee = node.callee as { type?: string; name?: string };
      const lazy = callee.type === 'Import';
      const required = callee.type === 'Identifier' && callee.name === 'require';
      return lazy || required ? specifierOf((node.arguments as unknown[])[0]) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The relative specifiers a source imports: `import`, `import type`, `export … from`, `import('…')` (a lazy import,
 * or a type written `import('…').T`) and `require('…')`. Parsed, not matched: comments and strings that only look
 * like imports are not taken.
 */
export function relativeImports(source: string, file = 'module.ts'): string[] {
  let ast: ReturnType<typeof parse>;
  try {
    ast = parse(source, { sourceType: 'module', plugins: pluginsOf(file) });
  } catch (error) {
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    if (typeof node.type === 'string') {
      const specifier = importedBy(node);
      if (specifier !== undefined) found.push(specifier);
    }
    for (const [key, child] of Object.entries(node)) {
      if (key !== 'loc' && key !== 'leadingComments' && key !== 'trailingComments') visit(child);
    }
  };
  visit(ast.program);
  return found.filter((name) => name.startsWith('./') || name.startsWith('../'));
}

/** The import graph of the folders under `root`: each file (relative to root) and the files it imports. */
export function importGraph(
  root: string,
  folders: readonly string[] = CHECKED_FOLDERS,
): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    for (const file of sourceFiles(join(root, folder))) {
      const targets = relativeImports(readFileSync(file, 'utf8'), file)
        .map((specifier) => resolveImport(file, specifier))
        .filter((target): target is string => target !== undefined && SOURCE.test(target))
        .map((target) => relative(root, target));
      graph.set(relative(root, file), [...new Set(targets)]);
    }
  }
  return graph;
}

/**
 * Every circle of the graph, one per strongly connected component (Tarjan), each as the files in import order with
 * the first repeated at the end: `a.ts → b.ts → a.ts`.
 */
export function findCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;

  // Iterative, so a deep chain of imports cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++] as string;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfImport = component.length === 1 && edges.includes(frame.node);
        if (component.length > 1 || selfImport) components.push(component);
      }
    }
  }
  return components.map((component) => circleWithin(graph, new Set(component)));
}

/** One circle through the component's first file (in sorted order), found by a breadth-first walk inside it. */
function circleWithin(graph: Map<string, string[]>, component: Set<string>): string[] {
  const first = [...component].sort()[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [first];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === first) {
        const path = [node];
        while (path[0] !== first) path.unshift(cameFrom.get(path[0] as string) as string);
        return [...path, first];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [first, first];
}

export function formatCircles(circles: string[][], files: number): string {
  if (circles.length === 0) return `import circles: none in ${files} files`;
  return [
    `import circles: ${circles.length} in ${files} files (static, type-only and lazy imports alike):`,
    ...circles.map((circle) => `  ${circle.join(' → ')}`),
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const graph = importGraph(process.cwd());
  const circles = findCircles(graph);
  (circles.length > 0 ? console.error : console.log)(formatCircles(circles, graph.size));
  process.exitCode = circles.length > 0 ? 1 : 0;
}
