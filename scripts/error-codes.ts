// The error codes the reference server can answer, read from its own source: every code a problem
// answer carries, found where the problems are built, so that `npm run i18n:check` can ask that each one has
// words for the person who sees it. Nothing here is a hand list of codes: the list is what the server's code says.
//
// How a code is found, in the server's source files (server/**/*.ts, not its tests or test helpers):
// - the code argument of a problem builder: `new HttpProblem(status, detail, code)`, `new DetailedProblem(...)`,
//   `makeProblem(status, detail, code)`, and every function or class whose parameter ends up there (found by a
//   fixpoint: `const problem = (status, detail, code) => new HttpProblem(status, detail, code)` is a builder too,
//   and so are its callers' literal codes);
// - the `code` of every field error `{ field, code }` in the server, and the `code` and `reason` properties of
//   object literals in a problem builder's arguments (a problem's extra members, a portrayal result's error);
// - a value is followed through literals, `a ? b : c`, `a ?? b`, local constants, `obj[key]` of a local constant
//   object (its values), calls of local or imported functions (their returns), and literal-union types
//   (`code: ImageRefusalCode`, `reason: RegistrationReason` = `typeof registrationReason.infer`, a
//   `(typeof LIST)[number]`, `keyof typeof MAP`), resolved in the server's files and contract/.
// A value it cannot follow (a column read from the database, a value built at run time, the parameter of a
// builder that nothing in the server calls) is a dynamic site: each must be declared in DYNAMIC_SITES below with
// where its codes come from, or the check fails naming it; a declaration that matches nothing any more fails too.
// The contract's code lists (contract/api) are read as well (CONTRACT_CODE_LISTS).
//
// checkErrorWords (run by scripts/i18n-check.ts) then asks each code for words: errorMessageId's id
// (common.errors.{code}, src/i18n/error-text.ts) in es, en and eu, or an entry of HANDLED_ELSEWHERE whose place
// is checked to handle it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { PORTRAYAL_ERROR_CODES } from '../contract/domain/enrolment';
import { errorMessageId } from '../src/i18n/error-text';

export interface AstNode {
  type: string;
  start?: number | null;
  end?: number | null;
  loc?: { start: { line: number } } | null;
  [key: string]: unknown;
}

type Parse = (code: string, options: object) => { program: AstNode };
let parser: Parse | undefined;
/** Babel's parser, the one Stately's extractor uses (machines:check), reached through it. */
function babelParse(): Parse {
  if (parser) return parser;
  const require = createRequire(import.meta.url);
  const fromExtractor = createRequire(require.resolve('@xstate/machine-extractor'));
  parser = (fromExtractor('@babel/parser') as { parse: Parse }).parse;
  return parser;
}

/** Where a code was found: file:line. */
export type Place = string;

export interface DynamicSite {
  file: string;
  line: number;
  /** The expression's source text, which names the site in DYNAMIC_SITES. */
  text: string;
}

/**
 * A code position whose value the collector cannot follow, and where its codes come from instead. `type`
 * names a literal-union type or list, resolved like the others (in `from`, a file of the project; `property`: the
 * union of that property's types in a union of object types); `covered` says why the site adds no code of its own.
 */
export interface DynamicSiteDeclaration {
  file: string;
  text: string;
  type?: { name: string; from: string; property?: string };
  covered?: string;
}

const PORTRAYAL_ERROR = { name: 'PortrayalErrorCode', from: 'contract/api/onboarding.ts' };

export const DYNAMIC_SITES: DynamicSiteDeclaration[] = [
  // The portrayal result's error: the engine's (engine.ts types it PortrayalErrorCode), kept in
  // portrayals.error_code and answered as the reason of a 422 (GET) or of a portrayal_failed 409 (confirmation).
  { file: 'server/onboarding/routers/confirmation.ts', text: 'portrayal.error_code', type: PORTRAYAL_ERROR },
  { file: 'server/onboarding/routers/portrayals.ts', text: 'portrayal.error_code', type: PORTRAYAL_ERROR },
  { file: 'server/onboarding/routers/portrayals.ts', text: 'error.code', type: PORTRAYAL_ERROR },
  // A single registration's image refused for its bytes (checkBytes).
  {
    file: 'server/singles/routes.ts',
    text: 'refused.code',
    type: { name: 'ImageRefusalCode', from: 'server/onboarding/images.ts' },
  },
  // A visit request's field errors, by the rules of contract/domain/visits.ts.
  {
    file: 'server/visits/routes.ts',
    text: 'code',
    type: { name: 'VisitRuleCode', from: 'contract/domain/visits.ts' },
  },
  // A bulk import's metadata that cannot be read (parseMetadata): the problem's reason.
  {
    file: 'server/bulk/routes.ts',
    text: 'code',
    type: { name: 'MetadataProblem', from: 'contract/domain/bulk.ts', property: 'code' },
  },
  // A watchlist file that is not a valid csv: its problem, and each invalid row's problems (joined by spaces).
  {
    file: 'server/audit/routes.ts',
    text: 'parsed.problem',
    type: { name: 'WatchlistFileProblem', from: 'contract/domain/watchlist.ts' },
  },
  {
    file: 'server/audit/routes.ts',
    text: "error.problems.join(' ')",
    type: { name: 'WatchlistRowProblem', from: 'contract/domain/watchlist.ts' },
  },
  {
    file: 'server/auth/logins.ts',
    text: 'first.code',
    covered: 'the code of the first of the field errors it is given, each collected where it is built',
  },
  {
    file: 'server/bulk/store.ts',
    text: 'r.code',
    covered: "a bulk row's user registration code, the number 0-3 of spec §8, not a message code",
  },
];

export interface CollectedCodes {
  /** code → the places that answer it. */
  codes: Map<string, Place[]>;
  /** Positions the collector could not follow and that DYNAMIC_SITES does not declare. */
  undeclared: DynamicSite[];
  /** Declarations of DYNAMIC_SITES that match no position any more (the code moved or changed). */
  stale: DynamicSiteDeclaration[];
  /** Declarations whose type could not be resolved to string literals. */
  unresolvedTypes: DynamicSiteDeclaration[];
}

// ---------------------------------------------------------------------------------------------------------------
// Files

interface SourceFile {
  path: string; // relative to the root, with forward slashes
  text: string;
  program: AstNode;
}

function listTs(root: string, dir: string, skip: (rel: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const name of readdirSync(abs)) {
      const full = join(abs, name);
      const rel = relative(root, full).split('\\').join('/');
      if (statSync(full).isDirectory()) {
        if (!skip(`${rel}/`)) walk(full);
      } else if (/\.tsx?$/.test(name) && !/\.d\.ts$/.test(name) && !skip(rel)) out.push(rel);
    }
  };
  walk(join(root, dir));
  return out.sort();
}

const isTestPath = (rel: string) => /\.test\.tsx?$/.test(rel) || /(^|\/)testing\//.test(rel);

/** The server's source files that answer requests: server/**, not tests and not test helpers. */
export function serverFiles(root: string): string[] {
  return listTs(root, 'server', isTestPath);
}

/** Parsed files by absolute path, kept while their text is the same (a check parses each file once). */
const parsed = new Map<string, { text: string; program: AstNode }>();

class Project {
  readonly files = new Map<string, SourceFile>();
  constructor(readonly root: string) {}

  file(path: string): SourceFile | undefined {
    const existing = this.files.get(path);
    if (existing) return existing;
    const absolute = join(this.root, path);
    let text: string;
    try {
      text = readFileSync(absolute, 'utf8');
    } catch {
      return undefined;
    }
    let cached = parsed.get(absolute);
    if (cached?.text !== text) {
      const program = babelParse()(text, { sourceType: 'module', plugins: ['typescript', 'jsx'] }).program;
      cached = { text, program };
      parsed.set(absolute, cached);
    }
    const file = { path, text, program: cached.program };
    this.files.set(path, file);
    return file;
  }

  /** The file an import specifier of `from` points to (relative imports only). */
  resolveImport(from: string, source: string): string | undefined {
    if (!source.startsWith('.')) return undefined;
    const base = resolve(this.root, dirname(from), source);
    const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
    for (const candidate of candidates) {
      const rel = relative(this.root, candidate).split('\\').join('/');
      try {
        if (statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return rel;
      } catch {
        // not this one
      }
    }
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// AST helpers

const isNode = (value: unknown): value is AstNode =>
  typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';

const SKIP_KEYS = new Set([
  'loc',
  'start',
  'end',
  'extra',
  'leadingComments',
  'trailingComments',
  'innerComments',
]);

function children(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (SKIP_KEYS.has(key)) continue;
    if (Array.isArray(value)) for (const item of value) if (isNode(item)) out.push(item);
    if (isNode(value)) out.push(value);
  }
  return out;
}

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'ObjectMethod',
  'ClassPrivateMethod',
]);
const isFunction = (node: AstNode) => FUNCTION_TYPES.has(node.type);

/** Visits every node with its ancestors (outermost first). */
function walk(
  node: AstNode,
  visit: (node: AstNode, ancestors: AstNode[]) => void,
  ancestors: AstNode[] = [],
) {
  visit(node, ancestors);
  ancestors.push(node);
  for (const child of children(node)) walk(child, visit, ancestors);
  ancestors.pop();
}

/** Nodes under `node`, not entering nested functions. */
function shallow(node: AstNode, visit: (node: AstNode) => void) {
  for (const child of children(node)) {
    visit(child);
    if (!isFunction(child)) shallow(child, visit);
  }
}

const lineOf = (node: AstNode) => node.loc?.start.line ?? 0;
const textOf = (file: SourceFile, node: AstNode) => file.text.slice(node.start ?? 0, node.end ?? 0);

function unwrap(node: AstNode): AstNode {
  let current = node;
  while (
    current.type === 'TSAsExpression' ||
    current.type === 'TSSatisfiesExpression' ||
    current.type === 'TSNonNullExpression' ||
    current.type === 'ParenthesizedExpression' ||
    current.type === 'TSTypeAssertion'
  )
    current = current.expression as AstNode;
  return current;
}

const propName = (prop: AstNode): string | undefined => {
  if (prop.type !== 'ObjectProperty' || prop.computed) return undefined;
  const key = prop.key as AstNode;
  if (key.type === 'Identifier') return String(key.name);
  if (key.type === 'StringLiteral') return String(key.value);
  return undefined;
};

const calleeName = (callee: AstNode): string | undefined => {
  if (callee.type === 'Identifier') return String(callee.name);
  return undefined;
};

// ---------------------------------------------------------------------------------------------------------------
// Declarations: what a name means in a file (its own top-level declarations, then its imports)

interface Declaration {
  file: SourceFile;
  /** VariableDeclarator, FunctionDeclaration, ClassDeclaration, TSTypeAliasDeclaration, TSInterfaceDeclaration. */
  node: AstNode;
}

function topLevel(file: SourceFile, name: string, kind: 'value' | 'type'): AstNode | undefined {
  for (const raw of file.program.body as AstNode[]) {
    const statement =
      (raw.type === 'ExportNamedDeclaration' || raw.type === 'ExportDefaultDeclaration') && raw.declaration
        ? (raw.declaration as AstNode)
        : raw;
    if (kind === 'type') {
      if (statement.type === 'TSTypeAliasDeclaration' && (statement.id as AstNode).name === name)
        return statement;
      continue;
    }
    if (
      (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') &&
      (statement.id as AstNode | null)?.name === name
    )
      return statement;
    if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations as AstNode[]) {
        const id = declarator.id as AstNode;
        if (id.type === 'Identifier' && id.name === name) return declarator;
      }
    }
  }
  return undefined;
}

function lookup(
  project: Project,
  file: SourceFile,
  name: string,
  kind: 'value' | 'type',
): Declaration | undefined {
  const own = topLevel(file, name, kind);
  if (own) return { file, node: own };
  for (const statement of file.program.body as AstNode[]) {
    if (statement.type !== 'ImportDeclaration') continue;
    for (const specifier of statement.specifiers as AstNode[]) {
      if ((specifier.local as AstNode).name !== name || specifier.type !== 'ImportSpecifier') continue;
      const imported = String((specifier.imported as AstNode).name ?? (specifier.imported as AstNode).value);
      const target = project.resolveImport(file.path, String((statement.source as AstNode).value));
      const targetFile = target ? project.file(target) : undefined;
      if (!targetFile) return undefined;
      return lookup(project, targetFile, imported, kind);
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Types: a literal union as its strings, or undefined when it is anything else

function typeCodes(
  project: Project,
  file: SourceFile,
  type: AstNode,
  seen = new Set<AstNode>(),
): string[] | undefined {
  if (seen.has(type)) return undefined;
  seen.add(type);
  switch (type.type) {
    case 'TSTypeAnnotation':
      return typeCodes(project, file, type.typeAnnotation as AstNode, seen);
    case 'TSParenthesizedType':
      return typeCodes(project, file, type.typeAnnotation as AstNode, seen);
    case 'TSUnionType': {
      const out: string[] = [];
      for (const member of type.types as AstNode[]) {
        const codes = typeCodes(project, file, member, seen);
        if (!codes) return undefined;
        out.push(...codes);
      }
      return out;
    }
    case 'TSLiteralType': {
      const literal = type.literal as AstNode;
      return literal.type === 'StringLiteral' ? [String(literal.value)] : undefined;
    }
    case 'TSNullKeyword':
    case 'TSUndefinedKeyword':
      return [];
    case 'TSTypeReference': {
      const name = type.typeName as AstNode;
      if (name.type !== 'Identifier') return undefined;
      const declaration = lookup(project, file, String(name.name), 'type');
      if (!declaration) return undefined;
      return typeCodes(project, declaration.file, declaration.node.typeAnnotation as AstNode, seen);
    }
    case 'TSIndexedAccessType': {
      // (typeof LIST)[number]
      let object = type.objectType as AstNode;
      if (object.type === 'TSParenthesizedType') object = object.typeAnnotation as AstNode;
      if (object.type !== 'TSTypeQuery' || (type.indexType as AstNode).type !== 'TSNumberKeyword')
        return undefined;
      const exprName = object.exprName as AstNode;
      if (exprName.type !== 'Identifier') return undefined;
      const declaration = lookup(project, file, String(exprName.name), 'value');
      const init = declaration?.node.init as AstNode | undefined;
      if (!declaration || !init) return undefined;
      const array = unwrap(init);
      if (array.type !== 'ArrayExpression') return undefined;
      const out: string[] = [];
      for (const element of array.elements as AstNode[]) {
        if (element?.type !== 'StringLiteral') return undefined;
        out.push(String(element.value));
      }
      return out;
    }
    case 'TSTypeQuery': {
      // typeof schema.infer, where schema = type("'a' | 'b'") (arktype)
      const exprName = type.exprName as AstNode;
      if (exprName.type !== 'TSQualifiedName' || (exprName.right as AstNode).name !== 'infer')
        return undefined;
      const left = exprName.left as AstNode;
      if (left.type !== 'Identifier') return undefined;
      const declaration = lookup(project, file, String(left.name), 'value');
      const init = declaration?.node.init as AstNode | undefined;
      return init ? arktypeLiterals(unwrap(init)) : undefined;
    }
    case 'TSTypeOperator': {
      // keyof typeof MAP
      const inner = type.typeAnnotation as AstNode;
      if (type.operator !== 'keyof' || inner.type !== 'TSTypeQuery') return undefined;
      const exprName = inner.exprName as AstNode;
      if (exprName.type !== 'Identifier') return undefined;
      const declaration = lookup(project, file, String(exprName.name), 'value');
      const init = declaration?.node.init as AstNode | undefined;
      const object = init ? unwrap(init) : undefined;
      if (object?.type !== 'ObjectExpression') return undefined;
      const keys = (object.properties as AstNode[]).map(propName);
      return keys.every((key) => key !== undefined) ? (keys as string[]) : undefined;
    }
    default:
      return undefined;
  }
}

/** The members of an arktype `type("'a' | 'b'")` (or `type.enumerated('a', 'b')`), or undefined. */
function arktypeLiterals(init: AstNode): string[] | undefined {
  if (init.type !== 'CallExpression') return undefined;
  const callee = init.callee as AstNode;
  const args = init.arguments as AstNode[];
  if (callee.type === 'Identifier' && callee.name === 'type' && args.length === 1) {
    const arg = args[0] as AstNode;
    if (arg.type !== 'StringLiteral') return undefined;
    const members = String(arg.value)
      .split('|')
      .map((member) => member.trim());
    if (!members.every((member) => /^'[^']*'$/.test(member))) return undefined;
    return members.map((member) => member.slice(1, -1));
  }
  if (
    callee.type === 'MemberExpression' &&
    (callee.object as AstNode).name === 'type' &&
    (callee.property as AstNode).name === 'enumerated' &&
    args.every((arg) => arg.type === 'StringLiteral')
  )
    return args.map((arg) => String(arg.value));
  return undefined;
}

/** The union of one property's literal types over a union of object types (`{ code: 'a' } | { code: 'b' }`). */
function propertyCodes(
  project: Project,
  file: SourceFile,
  type: AstNode,
  property: string,
): string[] | undefined {
  const members = type.type === 'TSUnionType' ? (type.types as AstNode[]) : [type];
  const out: string[] = [];
  for (const member of members) {
    if (member.type !== 'TSTypeLiteral') return undefined;
    const signature = (member.members as AstNode[]).find(
      (m) => m.type === 'TSPropertySignature' && (m.key as AstNode).name === property,
    );
    const codes = signature?.typeAnnotation
      ? typeCodes(project, file, signature.typeAnnotation as AstNode)
      : undefined;
    if (!codes) return undefined;
    out.push(...codes);
  }
  return out;
}

/** A named literal-union type (or arktype schema, or `as const` list, or string constant) of a file, as its strings. */
function namedCodes(project: Project, from: string, name: string, property?: string): string[] | undefined {
  const file = project.file(from);
  if (!file) return undefined;
  const alias = lookup(project, file, name, 'type');
  if (alias && property)
    return propertyCodes(project, alias.file, alias.node.typeAnnotation as AstNode, property);
  if (property) return undefined;
  if (alias) return typeCodes(project, alias.file, alias.node.typeAnnotation as AstNode);
  const value = lookup(project, file, name, 'value');
  const init = value?.node.init as AstNode | undefined;
  if (!value || !init) return undefined;
  const unwrapped = unwrap(init);
  if (unwrapped.type === 'StringLiteral') return [String(unwrapped.value)];
  if (unwrapped.type === 'ArrayExpression') {
    const elements = unwrapped.elements as AstNode[];
    return elements.every((e) => e?.type === 'StringLiteral')
      ? elements.map((e) => String(e.value))
      : undefined;
  }
  return arktypeLiterals(unwrapped);
}

// ---------------------------------------------------------------------------------------------------------------
// Values: what codes an expression can be

interface Scope {
  file: SourceFile;
  /** Ancestors of the expression, outermost first. */
  ancestors: AstNode[];
}

/** A builder: a function or class one of whose parameters (or that parameter's `.code`) is a problem's code. */
interface Builder {
  args: Set<number>;
  codeOfArgs: Set<number>;
  /** Where its parameters become a code: reported as dynamic sites when nothing in the server calls it. */
  uses: DynamicSite[];
  called: boolean;
}

interface Outcome {
  codes: { code: string; place: Place }[];
  dynamic: DynamicSite[];
  /** Parameters of an enclosing function that flow into the code: (function node, index, as `.code`). */
  params: { fn: AstNode; index: number; member: boolean }[];
}

const emptyOutcome = (): Outcome => ({ codes: [], dynamic: [], params: [] });

function merge(into: Outcome, from: Outcome) {
  into.codes.push(...from.codes);
  into.dynamic.push(...from.dynamic);
  into.params.push(...from.params);
}

function paramName(param: AstNode): { name: string; type?: AstNode } | undefined {
  if (param.type === 'Identifier')
    return { name: String(param.name), type: param.typeAnnotation as AstNode | undefined };
  if (param.type === 'AssignmentPattern') return paramName(param.left as AstNode);
  if (param.type === 'TSParameterProperty') return paramName(param.parameter as AstNode);
  return undefined;
}

type Binding =
  | { kind: 'param'; fn: AstNode; index: number; type?: AstNode }
  | { kind: 'variable'; declarator: AstNode; fn: AstNode | undefined }
  | { kind: 'declaration'; declaration: Declaration };

/** What an identifier refers to at a place: a parameter, a local variable, or a top-level or imported name. */
function bind(project: Project, scope: Scope, name: string): Binding | undefined {
  for (let i = scope.ancestors.length - 1; i >= 0; i--) {
    const node = scope.ancestors[i] as AstNode;
    if (!isFunction(node)) continue;
    const params = node.params as AstNode[];
    for (const [index, param] of params.entries()) {
      const found = paramName(param);
      if (found?.name === name) return { kind: 'param', fn: node, index, type: found.type };
    }
    let declarator: AstNode | undefined;
    shallow(node.body as AstNode, (child) => {
      if (!declarator && child.type === 'VariableDeclarator' && (child.id as AstNode).name === name)
        declarator = child;
    });
    if (declarator) return { kind: 'variable', declarator, fn: node };
  }
  const declaration = lookup(project, scope.file, name, 'value');
  return declaration ? { kind: 'declaration', declaration } : undefined;
}

class Collector {
  readonly builders = new Map<AstNode, Builder>();
  /** The seeds, by name: HttpProblem and makeProblem (server/http/problem.ts), whose third argument is the code. */
  readonly seeds = new Map<string, Builder>([
    ['HttpProblem', { args: new Set([2]), codeOfArgs: new Set(), uses: [], called: true }],
    ['makeProblem', { args: new Set([2]), codeOfArgs: new Set(), uses: [], called: true }],
  ]);
  private evaluating = new Set<AstNode>();

  constructor(readonly project: Project) {}

  /** The builder a callee names, if any (the seeds by name, the others by their declaration). */
  builderOf(scope: Scope, callee: AstNode): { builder: Builder; node: AstNode } | undefined {
    let name = calleeName(callee);
    if (callee.type === 'Super') {
      const cls = [...scope.ancestors]
        .reverse()
        .find((n) => n.type === 'ClassDeclaration' || n.type === 'ClassExpression');
      const superClass = cls?.superClass as AstNode | undefined;
      name = superClass?.type === 'Identifier' ? String(superClass.name) : undefined;
    }
    if (!name) return undefined;
    const seed = this.seeds.get(name);
    if (seed) return { builder: seed, node: callee };
    const binding = bind(this.project, scope, name);
    const node =
      binding?.kind === 'declaration'
        ? binding.declaration.node
        : binding?.kind === 'variable'
          ? binding.declarator
          : undefined;
    const builder = node ? this.builders.get(node) : undefined;
    return builder && node ? { builder, node } : undefined;
  }

  /** The builder key of a function node: its declarator or declaration (a class for its constructor). */
  keyOf(fn: AstNode, ancestors: AstNode[]): AstNode | undefined {
    if (fn.type === 'FunctionDeclaration') return fn;
    if (fn.type === 'ClassMethod' && fn.kind === 'constructor') {
      return [...ancestors].reverse().find((n) => n.type === 'ClassDeclaration');
    }
    const parent = ancestors[ancestors.length - 1];
    if (parent?.type === 'VariableDeclarator' && parent.init === fn) return parent;
    return undefined;
  }

  evaluate(scope: Scope, expression: AstNode): Outcome {
    const out = emptyOutcome();
    const node = unwrap(expression);
    const place = `${scope.file.path}:${lineOf(node)}`;
    const dynamic = () =>
      out.dynamic.push({ file: scope.file.path, line: lineOf(node), text: textOf(scope.file, node) });
    switch (node.type) {
      case 'StringLiteral':
        out.codes.push({ code: String(node.value), place });
        return out;
      case 'TemplateLiteral': {
        // Every combination of the values its parts can take (`${field}_already_in_use`), when they are few.
        const quasis = (node.quasis as AstNode[]).map((q) => String((q.value as { cooked: string }).cooked));
        let texts = [quasis[0] ?? ''];
        for (const [i, part] of (node.expressions as AstNode[]).entries()) {
          const inner = this.evaluate(scope, part);
          if (inner.dynamic.length > 0 || inner.params.length > 0 || inner.codes.length === 0) {
            dynamic();
            return out;
          }
          const values = [...new Set(inner.codes.map((c) => c.code))];
          texts = texts.flatMap((text) => values.map((value) => `${text}${value}${quasis[i + 1] ?? ''}`));
          if (texts.length > 50) {
            dynamic();
            return out;
          }
        }
        for (const code of texts) out.codes.push({ code, place });
        return out;
      }
      case 'NumericLiteral':
      case 'NullLiteral':
      case 'BooleanLiteral':
        return out;
      case 'ConditionalExpression':
        merge(out, this.evaluate(scope, node.consequent as AstNode));
        merge(out, this.evaluate(scope, node.alternate as AstNode));
        return out;
      case 'LogicalExpression':
        merge(out, this.evaluate(scope, node.left as AstNode));
        merge(out, this.evaluate(scope, node.right as AstNode));
        return out;
      case 'Identifier': {
        if (node.name === 'undefined') return out;
        const binding = bind(this.project, scope, String(node.name));
        if (!binding) {
          dynamic();
          return out;
        }
        if (binding.kind === 'param') {
          const codes = binding.type ? typeCodes(this.project, scope.file, binding.type) : undefined;
          if (codes) for (const code of codes) out.codes.push({ code, place });
          else out.params.push({ fn: binding.fn, index: binding.index, member: false });
          return out;
        }
        const declarator = binding.kind === 'variable' ? binding.declarator : binding.declaration.node;
        const file = binding.kind === 'declaration' ? binding.declaration.file : scope.file;
        merge(out, this.evaluateDeclaration(scope, file, declarator, node));
        return out;
      }
      case 'MemberExpression': {
        const object = unwrap(node.object as AstNode);
        const property = node.property as AstNode;
        // `param.code`: the parameter's code
        if (
          !node.computed &&
          object.type === 'Identifier' &&
          property.type === 'Identifier' &&
          property.name === 'code'
        ) {
          const binding = bind(this.project, scope, String(object.name));
          // (a parameter typed with an interface whose code is a plain string says nothing more)
          if (binding?.kind === 'param') {
            out.params.push({ fn: binding.fn, index: binding.index, member: true });
            return out;
          }
        }
        // `MAP[key]` of a constant object: any of its values
        if (node.computed && object.type === 'Identifier') {
          const binding = bind(this.project, scope, String(object.name));
          const declarator =
            binding?.kind === 'variable'
              ? binding.declarator
              : binding?.kind === 'declaration'
                ? binding.declaration.node
                : undefined;
          const file = binding?.kind === 'declaration' ? binding.declaration.file : scope.file;
          const init = declarator?.init ? unwrap(declarator.init as AstNode) : undefined;
          if (init?.type === 'ObjectExpression') {
            const inner: Scope = { file, ancestors: [] };
            for (const prop of init.properties as AstNode[]) {
              if (prop.type === 'ObjectProperty') merge(out, this.evaluate(inner, prop.value as AstNode));
              else dynamic();
            }
            return out;
          }
        }
        dynamic();
        return out;
      }
      case 'CallExpression': {
        const callee = node.callee as AstNode;
        if (callee.type === 'Identifier') {
          const binding = bind(this.project, scope, String(callee.name));
          const target =
            binding?.kind === 'declaration'
              ? { file: binding.declaration.file, node: binding.declaration.node }
              : binding?.kind === 'variable'
                ? { file: scope.file, node: binding.declarator }
                : undefined;
          const fn =
            target?.node.type === 'FunctionDeclaration'
              ? target.node
              : target?.node.init && isFunction(unwrap(target.node.init as AstNode))
                ? unwrap(target.node.init as AstNode)
                : undefined;
          if (target && fn) {
            merge(out, this.returns({ file: target.file, ancestors: [] }, fn));
            return out;
          }
        }
        dynamic();
        return out;
      }
      default:
        dynamic();
        return out;
    }
  }

  /** The codes a variable can hold: its declared literal-union type, else its initialiser and assignments. */
  private evaluateDeclaration(scope: Scope, file: SourceFile, declarator: AstNode, use: AstNode): Outcome {
    const out = emptyOutcome();
    if (declarator.type !== 'VariableDeclarator') {
      out.dynamic.push({ file: scope.file.path, line: lineOf(use), text: textOf(scope.file, use) });
      return out;
    }
    const id = declarator.id as AstNode;
    const annotated = id.typeAnnotation
      ? typeCodes(this.project, file, id.typeAnnotation as AstNode)
      : undefined;
    const place = `${scope.file.path}:${lineOf(use)}`;
    if (annotated) {
      for (const code of annotated) out.codes.push({ code, place });
      return out;
    }
    if (this.evaluating.has(declarator) || !declarator.init) {
      out.dynamic.push({ file: scope.file.path, line: lineOf(use), text: textOf(scope.file, use) });
      return out;
    }
    this.evaluating.add(declarator);
    try {
      // Its own scope: the ancestors of the declarator in its file.
      const declScope = file === scope.file ? this.scopeOf(file, declarator) : { file, ancestors: [] };
      merge(out, this.evaluate(declScope, declarator.init as AstNode));
      // `let` reassigned in its function
      const fn = [...declScope.ancestors].reverse().find(isFunction) ?? file.program;
      walk(fn, (node, ancestors) => {
        if (
          node.type === 'AssignmentExpression' &&
          (node.left as AstNode).type === 'Identifier' &&
          (node.left as AstNode).name === id.name
        )
          merge(
            out,
            this.evaluate(
              { file, ancestors: [...this.scopeOf(file, fn).ancestors, fn, ...ancestors] },
              node.right as AstNode,
            ),
          );
      });
    } finally {
      this.evaluating.delete(declarator);
    }
    return out;
  }

  private scopes = new Map<AstNode, AstNode[]>();
  /** The ancestors of a node in its file. */
  scopeOf(file: SourceFile, target: AstNode): Scope {
    const cached = this.scopes.get(target);
    if (cached) return { file, ancestors: cached };
    let found: AstNode[] = [];
    walk(file.program, (node, ancestors) => {
      if (node === target) found = [...ancestors];
    });
    this.scopes.set(target, found);
    return { file, ancestors: found };
  }

  /** The codes a function can return. */
  private returns(scope: Scope, fn: AstNode): Outcome {
    const out = emptyOutcome();
    if (this.evaluating.has(fn)) return out;
    this.evaluating.add(fn);
    try {
      const fnScope = this.scopeOf(scope.file, fn);
      const inner: Scope = { file: scope.file, ancestors: [...fnScope.ancestors, fn] };
      const body = fn.body as AstNode;
      if (body.type !== 'BlockStatement') merge(out, this.evaluate(inner, body));
      else
        walk(body, (node, ancestors) => {
          if (node.type === 'ReturnStatement' && node.argument && !ancestors.some((a) => isFunction(a)))
            merge(
              out,
              this.evaluate(
                { file: scope.file, ancestors: [...inner.ancestors, body, ...ancestors] },
                node.argument as AstNode,
              ),
            );
        });
    } finally {
      this.evaluating.delete(fn);
    }
    // A function's own parameters are not a caller's: a value that is one is not followed further.
    out.params = out.params.filter((p) => p.fn !== fn);
    return out;
  }
}

/** Code positions of one server file: the outcomes of every code-bearing expression. */
function scanFile(collector: Collector, file: SourceFile, results: Outcome, changed: { value: boolean }) {
  const record = (scope: Scope, expression: AstNode) => {
    const outcome = collector.evaluate(scope, expression);
    results.codes.push(...outcome.codes);
    results.dynamic.push(...outcome.dynamic);
    for (const { fn, index, member } of outcome.params) {
      const fnAncestors = collector.scopeOf(file, fn).ancestors;
      const key = collector.keyOf(fn, fnAncestors);
      if (!key) {
        results.dynamic.push({
          file: file.path,
          line: lineOf(expression),
          text: textOf(file, unwrap(expression)),
        });
        continue;
      }
      // HttpProblem and makeProblem themselves: the seeds, known by name.
      if (collector.seeds.has(String((key.id as AstNode | undefined)?.name))) continue;
      let builder = collector.builders.get(key);
      if (!builder) {
        builder = { args: new Set(), codeOfArgs: new Set(), uses: [], called: false };
        collector.builders.set(key, builder);
      }
      const use = { file: file.path, line: lineOf(expression), text: textOf(file, unwrap(expression)) };
      if (!builder.uses.some((u) => u.file === use.file && u.line === use.line && u.text === use.text))
        builder.uses.push(use);
      const set = member ? builder.codeOfArgs : builder.args;
      if (!set.has(index)) {
        set.add(index);
        changed.value = true;
      }
    }
  };
  walk(file.program, (node, ancestors) => {
    const scope: Scope = { file, ancestors };
    // { field, code } anywhere: a field error, whichever problem it ends up in
    if (node.type === 'ObjectExpression') {
      const props = node.properties as AstNode[];
      if (props.some((prop) => propName(prop) === 'field')) {
        for (const prop of props) {
          if (propName(prop) === 'code')
            record({ file, ancestors: [...ancestors, node, prop] }, prop.value as AstNode);
        }
      }
    }
    if (node.type !== 'CallExpression' && node.type !== 'NewExpression') return;
    const found = collector.builderOf(scope, node.callee as AstNode);
    const isProblemResponse = calleeName(node.callee as AstNode) === 'problemResponse';
    if (!found && !isProblemResponse) return;
    const args = node.arguments as AstNode[];
    const argScope: Scope = { file, ancestors: [...ancestors, node] };
    if (found) found.builder.called = true;
    if (found) {
      for (const index of found.builder.args) if (args[index]) record(argScope, args[index] as AstNode);
      for (const index of found.builder.codeOfArgs) {
        const arg = args[index] ? unwrap(args[index] as AstNode) : undefined;
        if (!arg) continue;
        // An object literal's code is recorded by the ObjectExpression rule; anything else is `arg.code`.
        if (arg.type !== 'ObjectExpression') {
          results.dynamic.push({ file: file.path, line: lineOf(arg), text: `${textOf(file, arg)}.code` });
        }
      }
    }
    // code: … and reason: … in a builder's object arguments (a problem's extra members, a result error), except
    // field errors, which the rule above records
    for (const arg of args) {
      walk(arg, (inner, innerAncestors) => {
        if (inner.type !== 'ObjectExpression' || innerAncestors.some(isFunction)) return;
        const props = inner.properties as AstNode[];
        const fieldError = props.some((prop) => propName(prop) === 'field');
        for (const prop of props) {
          const name = propName(prop);
          if (name === 'reason' || (name === 'code' && !fieldError))
            record(
              { file, ancestors: [...argScope.ancestors, ...innerAncestors, inner, prop] },
              prop.value as AstNode,
            );
        }
      });
    }
  });
}

/**
 * Every code the server's problem answers can carry, with where; the positions it could not follow are
 * matched against DYNAMIC_SITES.
 */
export function collectServerCodes(
  root: string = process.cwd(),
  declarations = DYNAMIC_SITES,
): CollectedCodes {
  const project = new Project(root);
  const files = serverFiles(root)
    .map((path) => project.file(path))
    .filter((file): file is SourceFile => file !== undefined);
  const collector = new Collector(project);
  let results = emptyOutcome();
  // Until no new builder is found: a builder's callers are code positions too.
  for (let round = 0; round < 10; round++) {
    results = emptyOutcome();
    const changed = { value: false };
    for (const file of files) scanFile(collector, file, results, changed);
    if (!changed.value) break;
  }
  // A function whose parameter becomes a code but that nothing in the server calls (a route handler's own
  // parameter, say): its codes come from somewhere the collector does not see.
  for (const builder of collector.builders.values())
    if (!builder.called) results.dynamic.push(...builder.uses);

  const codes = new Map<string, Place[]>();
  const add = (code: string, place: Place) => {
    const places = codes.get(code) ?? [];
    if (!places.includes(place)) places.push(place);
    codes.set(code, places);
  };
  for (const { code, place } of results.codes) add(code, place);

  const undeclared: DynamicSite[] = [];
  const used = new Set<DynamicSiteDeclaration>();
  const unresolvedTypes: DynamicSiteDeclaration[] = [];
  const seenSites = new Set<string>();
  for (const site of results.dynamic) {
    const key = `${site.file}:${site.line}:${site.text}`;
    if (seenSites.has(key)) continue;
    seenSites.add(key);
    const declaration = declarations.find((d) => d.file === site.file && d.text === site.text);
    if (!declaration) {
      undeclared.push(site);
      continue;
    }
    used.add(declaration);
    if (declaration.type) {
      const typed = namedCodes(
        project,
        declaration.type.from,
        declaration.type.name,
        declaration.type.property,
      );
      if (!typed) {
        if (!unresolvedTypes.includes(declaration)) unresolvedTypes.push(declaration);
        continue;
      }
      for (const code of typed) add(code, `${site.file}:${site.line}`);
    }
  }
  const stale = declarations.filter((d) => !used.has(d));
  return {
    codes: new Map([...codes].sort(([a], [b]) => a.localeCompare(b))),
    undeclared,
    stale,
    unresolvedTypes,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The contract's code lists (contract/api): the codes both sides name, whether or not the server's source
// spells them out where it answers.

export interface ContractList {
  name: string;
  from: string;
}

export const CONTRACT_CODE_LISTS: ContractList[] = [
  { name: 'portrayalErrorCode', from: 'contract/api/onboarding.ts' },
  { name: 'registrationReason', from: 'contract/api/onboarding.ts' },
  { name: 'VISIT_ERROR_CODES', from: 'contract/api/visits.ts' },
  { name: 'CREDENTIAL_ALREADY_EXISTS', from: 'contract/api/credentials.ts' },
  { name: 'IMAGE_REFUSAL_CODES', from: 'contract/api/image-refusals.ts' },
];

/**
 * Lists of the contract whose names sound like codes but that are not error answers, and why. A new export
 * named like an error list (error, reason, refusal, …exists) must be in one of the two lists.
 */
export const CONTRACT_NOT_CODE_LISTS: Record<string, string> = {
  ACCESS_REASONS: 'why a door decided as it did (audit rows, 200 answers): audit.reason.{reason}',
  AccessReason: 'the type of ACCESS_REASONS',
  portrayalResultProblem: 'the shape of the 422 of a portrayal result, not a list',
  PortrayalResultProblem: 'the type of portrayalResultProblem',
  PortrayalErrorCode: 'the type of portrayalErrorCode',
  RegistrationReason: 'the type of registrationReason',
  VisitErrorCode: 'the type of VISIT_ERROR_CODES',
  ImageRefusalCode: 'the type of IMAGE_REFUSAL_CODES',
  credentialAlreadyExists:
    'the shape of the credential-already-exists answer (its code: CREDENTIAL_ALREADY_EXISTS)',
  fieldError: 'the shape of one field error { field, code }, not a list',
  FieldError: 'the type of fieldError',
  SIGN_IN_REASONS:
    'why the portal asks for the password again, which the sign-in page says (server/auth/pages.ts): no answer of the API',
  SignInReason: 'the type of SIGN_IN_REASONS',
  SIGN_IN_REASON_PARAM: 'the authorization parameter that carries a SignInReason',
  signInReasonOf: 'reads a SignInReason',
};

const CODE_LIST_NAME = /error|reason|refus|exists/i;

export function collectContractCodes(
  root: string = process.cwd(),
  lists: ContractList[] = CONTRACT_CODE_LISTS,
): {
  codes: Map<string, Place[]>;
  /** Exports named like a code list that neither list above names. */
  unlisted: string[];
  /** CONTRACT_CODE_LISTS entries that resolve to no string literals. */
  unresolved: ContractList[];
} {
  const project = new Project(root);
  const codes = new Map<string, Place[]>();
  const unresolved: ContractList[] = [];
  for (const list of lists) {
    const found = namedCodes(project, list.from, list.name);
    if (!found || found.length === 0) unresolved.push(list);
    for (const code of found ?? [])
      codes.set(code, [...(codes.get(code) ?? []), `${list.from} ${list.name}`]);
  }
  const listed = new Set(lists.map((l) => l.name));
  const unlisted: string[] = [];
  const contractDir = join(root, 'contract/api');
  const paths = statSync(contractDir, { throwIfNoEntry: false })?.isDirectory()
    ? listTs(root, 'contract/api', isTestPath)
    : [];
  for (const path of paths) {
    const file = project.file(path);
    if (!file) continue;
    for (const statement of file.program.body as AstNode[]) {
      if (statement.type !== 'ExportNamedDeclaration' || !statement.declaration) continue;
      const declaration = statement.declaration as AstNode;
      const names =
        declaration.type === 'VariableDeclaration'
          ? (declaration.declarations as AstNode[]).map((d) => String((d.id as AstNode).name))
          : [String((declaration.id as AstNode | undefined)?.name)];
      for (const name of names) {
        if (CODE_LIST_NAME.test(name) && !listed.has(name) && !(name in CONTRACT_NOT_CODE_LISTS))
          unlisted.push(`${path} ${name}`);
      }
    }
  }
  return { codes, unlisted, unresolved };
}

// ---------------------------------------------------------------------------------------------------------------
// Words: each code has a message common.errors.{code} in every language, or is handled where this list says

/**
 * A code the portal puts in words without common.errors: a machine that takes its own path for it (a guard with
 * the code as a literal param: `{ type: guard, params: { …: 'code' } }` in `file`), a catalogue group of its own
 * (`words`: the message id with `{code}`, which `file` must build and every language must hold), or a
 * declaration of `file` (`declared`) that recognises the code (it names it, or a constant whose value it is).
 */
export interface Handler {
  codes: string[];
  file: string;
  guard?: string;
  words?: string;
  declared?: string;
  why: string;
}

export const HANDLED_ELSEWHERE: Handler[] = [
  {
    codes: [
      'underaged',
      'user_interdicted',
      'document_expired',
      'life_proofing_failed',
      'user_already_registered',
      'enforcement_source_unavailable',
    ],
    file: 'machines/enrolment.machine.ts',
    guard: 'hasCode',
    why: 'registration reasons (spec §8): FinishRegisterWithError, finishError.{error}',
  },
  {
    codes: [...PORTRAYAL_ERROR_CODES],
    file: 'machines/portrayal-result.machine.ts',
    guard: 'hasCode',
    why: 'portrayal result errors (spec §8): the scan and selfie failure screens, scanFailure.* and selfieFailure.*',
  },
  {
    codes: ['file_too_large', 'not_csv', 'invalid_rows', 'unknown_domain', 'upload_not_found'],
    file: 'machines/watchlist-upload.machine.ts',
    guard: 'hasCode',
    why: 'the watchlist upload result page (spec §8): watchlist.failed.{code}',
  },
  {
    codes: [
      'empty',
      'missing_columns',
      'stray_quote',
      'unterminated_quote',
      'line_too_long',
      'birth_date_invalid',
      'birth_date_missing',
      'id_number_invalid',
      'id_number_missing',
    ],
    file: 'src/features/audit/upload-watchlist-result.tsx',
    words: 'watchlist.problem.{code}',
    why: "why a watchlist file or row is not valid: the upload result's problem line",
  },
  {
    codes: ['media_corrupt', 'metadata_invalid', 'metadata_empty', 'metadata_columns', 'too_many_elements'],
    file: 'src/features/portal/bulk-registration.tsx',
    words: 'bulk.problem.{code}',
    why: "a bulk import's files refused as a whole (machines/bulk-registration.machine.ts hasCode)",
  },
  {
    codes: ['no_users_found', 'no_facility'],
    file: 'machines/activate-users.machine.ts',
    guard: 'hasCode',
    why: 'ActivateUsers (spec §8 Activation): failed.noUsers, failed.noFacility',
  },
  {
    codes: ['accreditation-request/credential-already-exists'],
    file: 'contract/api/credentials.ts',
    declared: 'credentialAlreadyExists',
    why: 'a success carrying the existing credential (spec §7): requestRight, then accreditation-request guard alreadyExisted',
  },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Why a handler does not hold for a code, or null when the place it names handles it. */
function handlerProblem(
  project: Project,
  handler: Handler,
  code: string,
  catalogues: Record<string, Record<string, string>>,
): string | null {
  const file = project.file(handler.file);
  if (!file) return `${handler.file} does not exist`;
  if (handler.guard) {
    const pattern = new RegExp(
      `type:\\s*'${escapeRegExp(handler.guard)}',\\s*params:\\s*\\{[^}]*'${escapeRegExp(code)}'`,
    );
    return pattern.test(file.text)
      ? null
      : `${handler.file} has no guard ${handler.guard} with params '${code}'`;
  }
  if (handler.words) {
    const [prefix = '', suffix = ''] = handler.words.split('{code}');
    if (!file.text.includes(prefix)) return `${handler.file} does not build ${handler.words}`;
    const id = `${prefix}${code}${suffix}`;
    const missing = Object.entries(catalogues)
      .filter(([, messages]) => !messages[id])
      .map(([locale]) => locale);
    return missing.length === 0 ? null : `no "${id}" in ${missing.join(', ')}`;
  }
  if (handler.declared) {
    const declaration = lookup(project, file, handler.declared, 'value');
    if (!declaration) return `${handler.file} declares no ${handler.declared}`;
    const text = textOf(declaration.file, declaration.node);
    if (text.includes(`'${code}'`)) return null;
    // A constant it names whose value is the code.
    for (const name of new Set(text.match(/\b[A-Z][A-Z0-9_]+\b/g) ?? [])) {
      if (namedCodes(project, declaration.file.path, name)?.includes(code)) return null;
    }
    return `${handler.declared} in ${handler.file} does not name '${code}'`;
  }
  return 'the handler names no guard, words or declaration';
}

export interface WordsReport {
  /** Every code: the server's and the contract's, with where each comes from. */
  codes: Map<string, Place[]>;
  /** Codes handled by HANDLED_ELSEWHERE (checked), by code. */
  handled: Map<string, Handler>;
  problems: string[];
}

/**
 * The check of `npm run i18n:check`: every code the server can answer (and every code of the contract's lists)
 * has words in every language, or is handled where HANDLED_ELSEWHERE says (and that place does handle it).
 */
export function checkErrorWords(
  root: string,
  catalogues: Record<string, Record<string, string>>,
  options: {
    declarations?: DynamicSiteDeclaration[];
    handlers?: Handler[];
    contractLists?: ContractList[];
    /** The server's codes collected already (collectServerCodes with the same root and declarations). */
    server?: CollectedCodes;
  } = {},
): WordsReport {
  const project = new Project(root);
  const server = options.server ?? collectServerCodes(root, options.declarations);
  const contract = collectContractCodes(root, options.contractLists);
  const codes = new Map(server.codes);
  for (const [code, places] of contract.codes) codes.set(code, [...(codes.get(code) ?? []), ...places]);
  const problems: string[] = [];
  for (const site of server.undeclared)
    problems.push(
      `${site.file}:${site.line}: a code the collector cannot follow (${site.text}): declare it in DYNAMIC_SITES (scripts/error-codes.ts)`,
    );
  for (const d of server.stale)
    problems.push(`DYNAMIC_SITES: ${d.file} has no code position \`${d.text}\` any more`);
  for (const d of server.unresolvedTypes)
    problems.push(`DYNAMIC_SITES: ${d.type?.name} of ${d.type?.from} is not a list of string literals`);
  for (const name of contract.unlisted)
    problems.push(
      `${name}: is it a list of error codes? Name it in CONTRACT_CODE_LISTS or CONTRACT_NOT_CODE_LISTS`,
    );
  for (const list of contract.unresolved)
    problems.push(`CONTRACT_CODE_LISTS: ${list.from} ${list.name} lists no codes`);

  const handlers = options.handlers ?? HANDLED_ELSEWHERE;
  const handled = new Map<string, Handler>();
  for (const [code, places] of codes) {
    const id = errorMessageId(code);
    if (id !== `common.errors.${code}`) {
      problems.push(
        `error code "${code}" (${places[0]}) is not an identifier the portal can look up (${id})`,
      );
      continue;
    }
    const missing = Object.entries(catalogues)
      .filter(([, messages]) => !messages[id])
      .map(([locale]) => locale);
    const handler = handlers.find((h) => h.codes.includes(code));
    if (handler) {
      const problem = handlerProblem(project, handler, code, catalogues);
      if (problem) problems.push(`error code "${code}" (${places[0]}): listed as handled, but ${problem}`);
      else handled.set(code, handler);
      continue;
    }
    if (missing.length > 0)
      problems.push(
        `error code "${code}" (${places.slice(0, 2).join(', ')}) has no "${id}" in ${missing.join(', ')}`,
      );
  }
  for (const handler of handlers)
    for (const code of handler.codes)
      if (!codes.has(code))
        problems.push(`HANDLED_ELSEWHERE names "${code}", which the server never answers`);
  return { codes, handled, problems };
}
