import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@babel/parser';
import type * as t from '@babel/types';

/**
 * Every call the portal makes to its API, read from the code of src/api (not a hand list): each `api.get|post|put|
 * delete(path, …)` inside an exported function, with its path as a template (`{id}` where the code puts a value in).
 * A call whose path is a choice (`useWatch ? '/a' : '/b'`) or that sits in both branches of a choice is one row per
 * path. The fault matrix (tests/e2e/fault-matrix.spec.ts) fails when one of these has no row of its own.
 */
export interface ApiCall {
  /** `module.function`, e.g. `visits.listVisits`. */
  fn: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** `GET /public/visits` — the key of the matrix's rows. */
  key: string;
}

const API_DIR = 'src/api';
// The client and its error type are the machinery of every call, not calls of their own.
const NOT_CALLS = new Set(['client.ts', 'errors.ts']);
const METHODS = { get: 'GET', post: 'POST', put: 'PUT', delete: 'DELETE' } as const;

type Helpers = Map<string, { params: string[]; body: t.Expression }>;

function paramName(node: t.Node): string {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'AssignmentPattern' && node.left.type === 'Identifier') return node.left.name;
  return '?';
}

/** The text of a path expression with every value the code puts in shown as `{name}`. */
function render(node: t.Node, helpers: Helpers, bound: Map<string, string> = new Map()): string[] {
  switch (node.type) {
    case 'StringLiteral':
      return [node.value];
    case 'TemplateLiteral': {
      let out = [''];
      node.quasis.forEach((quasi, i) => {
        out = out.map((prefix) => prefix + (quasi.value.cooked ?? quasi.value.raw));
        const expression = node.expressions[i];
        if (expression) {
          const parts = render(expression, helpers, bound);
          out = out.flatMap((prefix) => parts.map((part) => prefix + part));
        }
      });
      return out;
    }
    case 'ConditionalExpression':
      return [...render(node.consequent, helpers, bound), ...render(node.alternate, helpers, bound)];
    case 'Identifier':
      return [bound.get(node.name) ?? `{${node.name}}`];
    case 'CallExpression': {
      const callee = node.callee;
      if (callee.type === 'Identifier' && callee.name === 'encodeURIComponent' && node.arguments[0]) {
        return render(node.arguments[0], helpers, bound);
      }
      const helper = callee.type === 'Identifier' ? helpers.get(callee.name) : undefined;
      if (helper) {
        // A local path helper (`userPath(id, '/selfie')`): its template with the arguments given, `{param}` else,
        // and '' for an optional part left out.
        const inner = new Map<string, string>();
        helper.params.forEach((param, i) => {
          const argument = node.arguments[i];
          const value = argument ? render(argument, helpers, bound)[0] : '';
          inner.set(param, value ?? '');
        });
        return render(helper.body, helpers, inner);
      }
      return ['{…}'];
    }
    case 'TSAsExpression':
    case 'TSNonNullExpression':
      return render(node.expression, helpers, bound);
    default:
      return ['{…}'];
  }
}

function visit(node: unknown, onCall: (call: t.CallExpression) => void): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) visit(child, onCall);
    return;
  }
  const record = node as { type?: string } & Record<string, unknown>;
  if (record.type === 'CallExpression') onCall(record as unknown as t.CallExpression);
  for (const [key, value] of Object.entries(record)) {
    if (key === 'loc' || key === 'start' || key === 'end' || key === 'leadingComments') continue;
    visit(value, onCall);
  }
}

/** Reads one module of src/api. */
export function callsOfModule(file: string, source: string): ApiCall[] {
  const module = file.replace(/\.ts$/, '');
  const ast = parse(source, { sourceType: 'module', plugins: ['typescript'] });
  const helpers: Helpers = new Map();
  for (const statement of ast.program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const d of declaration.declarations) {
      if (
        d.id.type === 'Identifier' &&
        d.init?.type === 'ArrowFunctionExpression' &&
        d.init.body.type !== 'BlockStatement'
      ) {
        helpers.set(d.id.name, { params: d.init.params.map(paramName), body: d.init.body });
      }
    }
  }
  const calls: ApiCall[] = [];
  for (const statement of ast.program.body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.declaration?.type !== 'FunctionDeclaration')
      continue;
    const fn = `${module}.${statement.declaration.id?.name ?? '?'}`;
    // A path the function builds first in a local constant (`const path = …; api.put(path, …)`).
    const locals = new Map<string, string>();
    for (const inner of statement.declaration.body.body) {
      if (inner.type !== 'VariableDeclaration') continue;
      for (const d of inner.declarations) {
        if (
          d.id.type === 'Identifier' &&
          (d.init?.type === 'TemplateLiteral' || d.init?.type === 'StringLiteral')
        ) {
          locals.set(d.id.name, render(d.init, helpers)[0] ?? '');
        }
      }
    }
    visit(statement.declaration.body, (call) => {
      const callee = call.callee;
      if (
        callee.type !== 'MemberExpression' ||
        callee.object.type !== 'Identifier' ||
        callee.object.name !== 'api'
      ) {
        return;
      }
      if (callee.property.type !== 'Identifier' || !(callee.property.name in METHODS)) return;
      const method = METHODS[callee.property.name as keyof typeof METHODS];
      const first = call.arguments[0];
      if (!first) return;
      for (const raw of render(first, helpers, locals)) {
        // The query the code adds to a path is not part of the call's kind.
        const path = raw.split('?')[0] ?? raw;
        const key = `${method} ${path}`;
        if (!calls.some((c) => c.fn === fn && c.key === key)) calls.push({ fn, method, path, key });
      }
    });
  }
  return calls;
}

/** Every call of src/api, sorted by key. */
export function apiCalls(root = '.'): ApiCall[] {
  const dir = join(root, API_DIR);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && !file.includes('.test.') && !NOT_CALLS.has(file))
    .flatMap((file) => callsOfModule(file, readFileSync(join(dir, file), 'utf8')))
    .sort((a, b) => a.key.localeCompare(b.key) || a.fn.localeCompare(b.fn));
}
