// npm run machines:check: every machine in machines/*.machine.ts must read, in Stately's own parser
// (@xstate/machine-extractor), the way ARCHITECTURE.md ("Machines: how they are written") asks: no parser
// warning, no anonymous inline implementation, literal params, and descriptions on the machine and on every
// screen or error state (naming the error code). Exits 1 with one line per problem.
import { readdirSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export type Rule = 'parse' | 'warning' | 'inline' | 'params' | 'description' | 'error-description' | 'meta';

export interface Problem {
  file: string;
  /** The machine's id ('?' when it has none). */
  machine: string;
  /** Dot path of the state ('(machine)' for the root). */
  path: string;
  line?: number;
  rules: Rule[];
  message: string;
}

// A minimal view of what the extractor returns (its own types describe xstate 4, not the installed xstate 5).
interface BabelNode {
  type: string;
  start?: number | null;
  end?: number | null;
  loc?: { start: { line: number } } | null;
  [key: string]: unknown;
}
interface ParsedValue {
  value?: unknown;
  node?: BabelNode;
}
interface ParsedAction {
  kind: 'named' | 'inline' | 'builtin';
  declarationType: string;
  name: string;
  node: BabelNode;
}
interface ParsedGuard {
  declarationType: string;
  name: string;
  node: BabelNode;
}
interface ParsedTransition {
  guard?: ParsedGuard;
  cond?: ParsedGuard;
  actions?: ParsedAction[];
}
interface ParsedInvoke {
  src?: { declarationType: string; value?: string; node: BabelNode };
  id?: ParsedValue;
  onDone?: ParsedTransition[];
  onError?: ParsedTransition[];
}
interface ParsedStateNode {
  node: BabelNode;
  id?: ParsedValue;
  entry?: ParsedAction[];
  exit?: ParsedAction[];
  on?: { properties: { key: string; result: ParsedTransition[] }[] };
  after?: { properties: { key: string; result: ParsedTransition[] }[] };
  always?: ParsedTransition[];
  onDone?: ParsedTransition[];
  invoke?: ParsedInvoke[];
}
interface ExtractedMachine {
  getAllStateNodes(): { ast: ParsedStateNode; path: string[] }[];
  toConfig(options?: { anonymousInlineImplementations?: boolean }): Record<string, unknown> | undefined;
}
interface Extractor {
  extractMachinesFromFile(source: string): { machines: (ExtractedMachine | undefined)[] } | null;
}

let extractor: Extractor | undefined;
/** The extractor needs xstate 4 at run time; the project has it as `xstate4`, beside xstate 5. */
function loadExtractor(): Extractor {
  if (extractor) return extractor;
  const hooked = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const original = hooked._resolveFilename;
  hooked._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    const redirected = request.startsWith('xstate/lib/') ? request.replace(/^xstate\//, 'xstate4/') : request;
    return original.call(this, redirected, ...rest);
  };
  extractor = createRequire(import.meta.url)('@xstate/machine-extractor') as Extractor;
  return extractor;
}

/** Meta keys that name an error code: errorCode, or any key ending in Error/error (uploadError, scanError…). */
export const isErrorKey = (key: string) => key === 'errorCode' || /error$/i.test(key);

const lineOf = (node: BabelNode | undefined) => node?.loc?.start.line;

const keyName = (key: BabelNode | undefined): string | undefined =>
  key?.type === 'Identifier'
    ? String(key.name)
    : key?.type === 'StringLiteral'
      ? String(key.value)
      : undefined;

/** A value the extractor keeps as it is: literals, and arrays and objects of literals. */
function isLiteral(node: BabelNode | undefined): boolean {
  if (!node) return false;
  switch (node.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
      return true;
    case 'TemplateLiteral':
      return (node.expressions as unknown[]).length === 0;
    case 'UnaryExpression':
      return node.operator === '-' && (node.argument as BabelNode).type === 'NumericLiteral';
    case 'ArrayExpression':
      return (node.elements as (BabelNode | null)[]).every(
        (element) => element !== null && isLiteral(element),
      );
    case 'ObjectExpression':
      return (node.properties as BabelNode[]).every(
        (property) =>
          property.type === 'ObjectProperty' && !property.computed && isLiteral(property.value as BabelNode),
      );
    default:
      return false;
  }
}

/** The value of a non-computed property of an object literal. */
function propertyOf(object: BabelNode | undefined, name: string): BabelNode | undefined {
  if (object?.type !== 'ObjectExpression') return undefined;
  const property = (object.properties as BabelNode[]).find(
    (p) => p.type === 'ObjectProperty' && !p.computed && keyName(p.key as BabelNode) === name,
  );
  return property?.value as BabelNode | undefined;
}

function stringValue(node: BabelNode | undefined): string | undefined {
  if (node?.type === 'StringLiteral') return String(node.value);
  if (node?.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) {
    const [quasi] = node.quasis as { value: { cooked?: string; raw: string } }[];
    return quasi?.value.cooked ?? quasi?.value.raw;
  }
  return undefined;
}

function containsFunction(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(containsFunction);
  const { type } = node as BabelNode;
  if (type === 'ArrowFunctionExpression' || type === 'FunctionExpression') return true;
  return Object.entries(node).some(
    ([key, value]) =>
      !['loc', 'leadingComments', 'trailingComments', 'extra'].includes(key) && containsFunction(value),
  );
}

/** Whether `text` names `code` as a word of its own (not inside a longer identifier). */
export function mentions(text: string, code: string): boolean {
  const escaped = code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_-])${escaped}($|[^A-Za-z0-9_-])`).test(text);
}

/** The problems of one machine file's source. `file` is only used to label them. */
export function checkMachineSource(source: string, file: string): Problem[] {
  const problems: Problem[] = [];
  const { extractMachinesFromFile } = loadExtractor();
  const warnings: { message: string; node?: BabelNode }[] = [];
  const originalWarn = console.warn;
  // The extractor reports what it cannot read with console.warn (the second argument holds the AST node).
  console.warn = (message: unknown, detail?: { key?: string; value?: BabelNode }) => {
    const key = detail?.key ? ` (property '${detail.key}')` : '';
    warnings.push({ message: `${String(message)}${key}`, node: detail?.value });
  };
  let machines: ExtractedMachine[];
  const configs: (Record<string, unknown> | undefined)[] = [];
  let warningsBefore: number[] = [];
  try {
    const result = extractMachinesFromFile(source);
    machines = (result?.machines ?? []).filter((m): m is ExtractedMachine => m !== undefined);
    warningsBefore = [warnings.length];
    for (const machine of machines) {
      configs.push(machine.toConfig({ anonymousInlineImplementations: true }));
      warningsBefore.push(warnings.length);
    }
  } catch (error) {
    console.warn = originalWarn;
    return [
      {
        file,
        machine: '?',
        path: '(file)',
        rules: ['parse'],
        message: `the extractor cannot read this file: ${(error as Error).message}`,
      },
    ];
  } finally {
    console.warn = originalWarn;
  }
  if (machines.length === 0) {
    return [
      { file, machine: '?', path: '(file)', rules: ['parse'], message: 'the extractor finds no machine' },
    ];
  }
  // Warnings raised while finding the machines, before any toConfig, belong to no machine in particular.
  for (const warning of warnings.slice(0, warningsBefore[0])) {
    problems.push({
      file,
      machine: '?',
      path: '(file)',
      line: lineOf(warning.node),
      rules: ['warning'],
      message: `extractor warning: ${warning.message}`,
    });
  }

  machines.forEach((machine, index) => {
    const config = configs[index];
    const stateNodes = machine.getAllStateNodes();
    const id = typeof config?.id === 'string' ? config.id : '?';
    const found: Problem[] = [];
    const add = (path: string[], node: BabelNode | undefined, rules: Rule[], message: string) =>
      found.push({
        file,
        machine: id,
        path: path.length ? path.join('.') : '(machine)',
        line: lineOf(node),
        rules,
        message,
      });
    if (id === '?')
      add([], undefined, ['meta'], 'the machine has no id (docs/machines names its files by it)');

    // Params the extractor cannot keep, by the source range of their value.
    const paramRanges: { start: number; end: number; problem: Problem }[] = [];
    const checkParams = (path: string[], owner: string, name: string, node: BabelNode | undefined) => {
      if (node?.type !== 'ObjectExpression') return;
      const params = (node.properties as BabelNode[]).find(
        (property) => property.type === 'ObjectProperty' && keyName(property.key as BabelNode) === 'params',
      );
      const value = params?.value as BabelNode | undefined;
      if (!value || isLiteral(value)) return;
      add(
        path,
        value,
        ['params'],
        `the params of ${owner} '${name}' are not a literal (${value.type}); the extractor drops them`,
      );
      const problem = found[found.length - 1] as Problem;
      paramRanges.push({ start: value.start ?? 0, end: value.end ?? 0, problem });
    };

    const checkActions = (path: string[], where: string, actions: ParsedAction[] | undefined) => {
      for (const action of actions ?? []) {
        if (action.kind === 'inline') {
          add(path, action.node, ['inline'], `${where}: an anonymous inline action (${action.node.type})`);
        } else if (action.kind === 'builtin' && action.name === 'assign') {
          add(path, action.node, ['inline'], `${where}: an inline assign(…); name it in setup({ actions })`);
        } else if (action.kind === 'builtin' && containsFunction(action.node)) {
          add(path, action.node, ['inline'], `${where}: an inline ${action.name}(…) computed by a function`);
        } else if (action.kind === 'named') {
          checkParams(path, 'action', action.name, action.node);
        }
      }
    };
    const checkTransitions = (path: string[], where: string, transitions: ParsedTransition[] | undefined) => {
      for (const transition of transitions ?? []) {
        const guard = transition.guard ?? transition.cond;
        if (guard && guard.declarationType !== 'named') {
          const what =
            guard.node.type === 'CallExpression'
              ? 'a guard the extractor cannot name (a call such as not() or and())'
              : 'an anonymous inline guard';
          add(
            path,
            guard.node,
            ['inline'],
            `${where}: ${what} (${guard.node.type}); name it in setup({ guards })`,
          );
        } else if (guard) {
          checkParams(path, 'guard', guard.name, guard.node);
        }
        checkActions(path, where, transition.actions);
      }
    };

    for (const { ast, path } of stateNodes) {
      checkActions(path, 'entry', ast.entry);
      checkActions(path, 'exit', ast.exit);
      for (const { key, result } of ast.on?.properties ?? []) checkTransitions(path, `on '${key}'`, result);
      for (const { key, result } of ast.after?.properties ?? [])
        checkTransitions(path, `after ${key}`, result);
      checkTransitions(path, 'always', ast.always);
      checkTransitions(path, 'onDone', ast.onDone);
      for (const invoke of ast.invoke ?? []) {
        const inline = invoke.src !== undefined && invoke.src.declarationType !== 'named';
        const name =
          typeof invoke.id?.value === 'string'
            ? invoke.id.value
            : inline
              ? '(no id)'
              : (invoke.src?.value ?? '?');
        if (invoke.src && inline) {
          add(
            path,
            invoke.src.node,
            ['inline'],
            `invoke ${name}: an inline actor (${invoke.src.node.type}); name it in setup({ actors })`,
          );
        }
        checkTransitions(path, `invoke ${name} onDone`, invoke.onDone);
        checkTransitions(path, `invoke ${name} onError`, invoke.onError);
      }

      // Descriptions: the machine, every screen, every error (naming its code).
      const written = propertyOf(ast.node, 'description');
      const description = stringValue(written);
      if (written && description === undefined) {
        add(
          path,
          written,
          ['description'],
          `the description is not a string literal (${written.type}); Stately's parser cannot read it`,
        );
      } else if (path.length === 0 && description === undefined) {
        add(path, ast.node, ['description'], 'the machine has no description');
      }
      const meta = propertyOf(ast.node, 'meta');
      if (meta?.type !== 'ObjectExpression') continue;
      const metaProblems: string[] = [];
      let screen: string | undefined;
      const codes: { key: string; code: string }[] = [];
      for (const property of meta.properties as BabelNode[]) {
        const key = property.type === 'ObjectProperty' ? keyName(property.key as BabelNode) : undefined;
        if (key !== 'screen' && !(key && isErrorKey(key))) continue;
        const value = stringValue(property.value as BabelNode);
        if (value === undefined) {
          if ((property.value as BabelNode).type !== 'NullLiteral') metaProblems.push(key);
          continue;
        }
        if (key === 'screen') screen = value;
        else codes.push({ key, code: value });
      }
      for (const key of metaProblems) add(path, meta, ['meta'], `meta.${key} is not a string literal`);
      if (!written && (screen !== undefined || codes.length > 0)) {
        const what = [
          screen !== undefined ? `screen ${screen}` : undefined,
          ...codes.map(({ key, code }) => `${key} ${code}`),
        ]
          .filter(Boolean)
          .join(', ');
        add(path, ast.node, ['description'], `no description (meta: ${what})`);
      } else if (description !== undefined) {
        for (const { key, code } of codes) {
          if (!mentions(description, code)) {
            add(path, ast.node, ['error-description'], `the description does not mention ${key} '${code}'`);
          }
        }
      }
    }

    // What the extractor itself marks as inline in the config it hands to Stately's tools must all have
    // been reported above, or this check has missed a shape.
    const marked = countInlineMarkers(config);
    const reported = found.filter((p) => p.rules.includes('inline')).length;
    if (marked > reported) {
      add(
        [],
        undefined,
        ['inline'],
        `the extractor marks ${marked} inline implementations, this check placed ${reported}`,
      );
    }

    // Extractor warnings of this machine, placed in the innermost state whose source holds them; a warning
    // about params already reported joins that problem.
    for (const warning of warnings.slice(warningsBefore[index], warningsBefore[index + 1])) {
      const at = warning.node?.start ?? -1;
      const param = paramRanges.find(({ start, end }) => at >= start && at < end);
      if (param) {
        if (!param.problem.rules.includes('warning')) param.problem.rules.unshift('warning');
        param.problem.message += `; extractor warning: ${warning.message}`;
        continue;
      }
      let where: string[] = [];
      for (const { ast, path } of stateNodes) {
        const { start, end } = ast.node;
        if (start != null && end != null && at >= start && at < end && path.length >= where.length)
          where = path;
      }
      add(where, warning.node, ['warning'], `extractor warning: ${warning.message}`);
    }
    found.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    problems.push(...found);
  });
  return problems;
}

/** Inline markers in the extractor's config: inline actions, assign, inline guards, inline invoke sources. */
function countInlineMarkers(config: unknown): number {
  if (!config || typeof config !== 'object') return 0;
  if (Array.isArray(config)) return config.reduce((sum: number, item) => sum + countInlineMarkers(item), 0);
  const record = config as Record<string, unknown>;
  const action = record.action as { type?: unknown } | undefined;
  const own =
    record.kind === 'inline' || (record.kind === 'builtin' && action?.type === 'xstate.assign') ? 1 : 0;
  return own + Object.values(record).reduce((sum: number, value) => sum + countInlineMarkers(value), 0);
}

export function machineFiles(dir = 'machines'): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.machine.ts'))
    .sort()
    .map((name) => join(dir, name));
}

const RULE_LABELS: Record<Rule, string> = {
  parse: 'unreadable',
  warning: 'extractor warnings',
  inline: 'inline implementations',
  params: 'non-literal params',
  description: 'missing descriptions',
  'error-description': 'descriptions without their error code',
  meta: 'meta problems',
};

/** The report for a set of files: per file a summary line, then one line per problem. */
export function formatReport(results: { file: string; problems: Problem[] }[]): string {
  const lines: string[] = [];
  let total = 0;
  for (const { file, problems } of results) {
    total += problems.length;
    if (problems.length === 0) {
      lines.push(`✓ ${file}`);
      continue;
    }
    const counts = (Object.keys(RULE_LABELS) as Rule[])
      .map((rule) => [rule, problems.filter((p) => p.rules.includes(rule)).length] as const)
      .filter(([, count]) => count > 0)
      .map(([rule, count]) => `${count} ${RULE_LABELS[rule]}`);
    lines.push(`✗ ${file}: ${counts.join(', ')}`);
    for (const problem of problems) {
      const line = problem.line ? `:${problem.line}` : '';
      lines.push(
        `    ${file}${line}  ${problem.machine} › ${problem.path}  [${problem.rules.join('+')}] ${problem.message}`,
      );
    }
  }
  if (total > 0) {
    const all = results.flatMap((r) => r.problems);
    const totals = (Object.keys(RULE_LABELS) as Rule[])
      .map((rule) => [rule, all.filter((p) => p.rules.includes(rule)).length] as const)
      .filter(([, count]) => count > 0)
      .map(([rule, count]) => `${count} ${RULE_LABELS[rule]}`);
    lines.push(`totals: ${totals.join(', ')}`);
  }
  lines.push(
    total === 0
      ? `machines:check: ${results.length} files, no problem`
      : `machines:check: ${total} problems in ${results.filter((r) => r.problems.length).length} of ${results.length} files (ARCHITECTURE.md, "Machines: how they are written")`,
  );
  return lines.join('\n');
}

export function checkFiles(files: string[], cwd = process.cwd()) {
  return files.map((file) => ({
    file: relative(cwd, resolve(cwd, file)),
    problems: checkMachineSource(readFileSync(file, 'utf8'), relative(cwd, resolve(cwd, file))),
  }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const results = checkFiles(args.length > 0 ? args : machineFiles());
  const report = formatReport(results);
  const failed = results.some((r) => r.problems.length > 0);
  (failed ? console.error : console.log)(report);
  process.exitCode = failed ? 1 : 0;
}
