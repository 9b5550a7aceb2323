// The part of the app's stylesheet that a server-painted page uses (server/shell.ts). The whole sheet is ~37 KB
// (~7 KB of Brotli): inlined whole, it was more than half of a painted page, and pushed the pages painted with the
// person's data past the first round trip of a phone's connection. The page inlines the rules its markup can match
// and links the whole sheet once the paint is on screen (server/shell-script.ts); the app draws nothing before the
// whole sheet has loaded (src/app/full-sheet.ts), so what the paint leaves out is never missed.
//
// A rule is kept unless it names a class the markup does not hold (outside `:not()`, where a missing class matches);
// rules without classes (the base layer, element and attribute selectors), at-rules' statements (`@layer a,b;`) and
// blocks whose rules are kept stay as they are. Custom properties are kept when something kept reads them
// (`var(--x)`, through other properties too), and so are their `@property` rules and the keyframes named in what is
// kept. What is kept is the sheet's own text in its order, less the selectors, declarations and rules left out.

/** A statement (`@layer a,b;`), a rule with declarations, or a block of rules (`@layer x{…}`, `@media …{…}`). */
type Node =
  | { kind: 'statement'; text: string }
  | { kind: 'rule'; prelude: string; body: string }
  | { kind: 'block'; prelude: string; children: Node[] };

/** At-rules whose body is rules rather than declarations. */
const NESTING = /^@(?:layer|media|supports|container|scope|starting-style|document)\b/;

/** The sheet as nodes; comments dropped. */
export function parseSheet(css: string): Node[] {
  let i = 0;
  const skipString = () => {
    const quote = css[i];
    i++;
    while (i < css.length && css[i] !== quote) i += css[i] === '\\' ? 2 : 1;
    i++;
  };
  const level = (): Node[] => {
    const nodes: Node[] = [];
    let start = i;
    while (i < css.length) {
      const ch = css[i];
      if (ch === '"' || ch === "'") skipString();
      else if (ch === '\\') i += 2;
      else if (ch === '/' && css[i + 1] === '*') {
        const end = css.indexOf('*/', i + 2);
        i = end < 0 ? css.length : end + 2;
        start = i;
      } else if (ch === ';') {
        const text = css.slice(start, i).trim();
        if (text) nodes.push({ kind: 'statement', text: `${text};` });
        start = ++i;
      } else if (ch === '{') {
        const prelude = css.slice(start, i).trim();
        i++;
        if (NESTING.test(prelude)) nodes.push({ kind: 'block', prelude, children: level() });
        else {
          const from = i;
          let depth = 1;
          while (i < css.length && depth > 0) {
            const c = css[i];
            if (c === '"' || c === "'") {
              skipString();
              continue;
            }
            if (c === '\\') i++;
            else if (c === '{') depth++;
            else if (c === '}') depth--;
            i++;
          }
          nodes.push({ kind: 'rule', prelude, body: css.slice(from, i - 1) });
        }
        start = i;
      } else if (ch === '}') {
        i++;
        return nodes;
      } else i++;
    }
    return nodes;
  };
  return level();
}

/** `s` split on `separator` outside parentheses, brackets and strings. */
function splitTop(s: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '"' || c === "'") {
      const end = s.indexOf(c, i + 1);
      i = end < 0 ? s.length : end;
    } else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === separator && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/** A CSS identifier as written, escapes resolved (`sm\:flex` → `sm:flex`, `\32 xl` → `2xl`). */
const unescapeIdent = (ident: string) =>
  ident.replace(/\\([0-9a-fA-F]{1,6}) ?|\\(.)/g, (_, hex: string | undefined, char: string | undefined) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : (char ?? ''),
  );

/** `selector` with the arguments of the pseudo-classes `names` finds emptied where `drop` holds. */
function withoutArguments(selector: string, names: RegExp, drop: (argument: string) => boolean): string {
  let out = '';
  let rest = selector;
  for (;;) {
    const match = names.exec(rest);
    if (!match) break;
    const open = match.index + match[0].length;
    let depth = 1;
    let end = open;
    for (; end < rest.length && depth > 0; end++) {
      if (rest[end] === '\\') end++;
      else if (rest[end] === '(') depth++;
      else if (rest[end] === ')') depth--;
    }
    const argument = rest.slice(open, end - 1);
    out += `${rest.slice(0, open)}${drop(argument) ? '' : argument})`;
    rest = rest.slice(end);
  }
  return out + rest;
}

/**
 * The classes a selector needs on the page: not those inside `:not(…)` (a missing class matches there), nor in a
 * list of `:is(…)` or `:where(…)` (one of them would do), nor in attribute values and strings (`[href$=".pdf"]`).
 */
function classesNeeded(selector: string): string[] {
  // Not a bracket or quote escaped in a class name (`.\[\&_svg\]\:size-5`, `.content-\[\'x\'\]`).
  const quoted = /(?<!\\)"(?:\\.|[^"\\])*"|(?<!\\)'(?:\\.|[^'\\])*'/g;
  const bare = withoutArguments(
    withoutArguments(selector.replace(quoted, '""'), /:not\(/, () => true),
    /:(?:is|where)\(/,
    (argument) => splitTop(argument, ',').length > 1,
  ).replace(/(?<!\\)\[(?:\\.|[^\]\\])*\]/g, '[]');
  return [...bare.matchAll(/\.((?:\\[0-9a-fA-F]{1,6} ?|\\.|[\w-])+)/g)].map((m) => unescapeIdent(m[1] ?? ''));
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Every class the markup's `class` attributes hold. */
export function classesOf(markup: string): Set<string> {
  const classes = new Set<string>();
  for (const match of markup.matchAll(/\sclass="([^"]*)"/g))
    for (const name of (match[1] ?? '').split(/\s+/))
      if (name)
        classes.add(
          name.replace(/&(?:(\w+)|#(\d+)|#x([0-9a-fA-F]+));/g, (entity, named, decimal, hex) =>
            named
              ? (ENTITIES[named as string] ?? entity)
              : String.fromCodePoint(decimal ? Number(decimal) : Number.parseInt(hex as string, 16)),
          ),
        );
  return classes;
}

/**
 * What is left of a block emptied of its rules: nothing, but for a named layer, which stays as a statement
 * (`@layer x;`) so that the layers keep the order the whole sheet gives them when it comes.
 */
const emptied = (node: Extract<Node, { kind: 'block' }>): Node[] =>
  /^@layer\s+[\w-]+$/.test(node.prelude) ? [{ kind: 'statement', text: `${node.prelude};` }] : [];

/** The rules of `nodes` the classes can match, blocks left empty dropped. */
function matching(nodes: readonly Node[], classes: ReadonlySet<string>): Node[] {
  const kept: Node[] = [];
  for (const node of nodes) {
    if (node.kind === 'block') {
      const children = matching(node.children, classes);
      kept.push(...(children.length > 0 ? [{ ...node, children }] : emptied(node)));
    } else if (node.kind === 'statement' || node.prelude.startsWith('@')) kept.push(node);
    else {
      const selectors = splitTop(node.prelude, ',').filter((selector) =>
        classesNeeded(selector).every((name) => classes.has(name)),
      );
      if (selectors.length > 0) kept.push({ ...node, prelude: selectors.join(',') });
    }
  }
  return kept;
}

const VAR_READ = /var\(\s*(--[\w-]+)/g;
const CUSTOM_DECLARATION = /^\s*(--[\w-]+)\s*:/;

/** Declarations that set a custom property (the theme's `:root`, the properties layer's fallbacks). */
const setsCustomProperties = (body: string) => splitTop(body, ';').some((d) => CUSTOM_DECLARATION.test(d));

/** The custom properties what is kept reads, through the values of the custom properties it reads. */
function propertiesRead(nodes: readonly Node[], alsoReading: string): Set<string> {
  const values = new Map<string, string[]>();
  const read = new Set<string>();
  const pending: string[] = [];
  const readIn = (text: string) => {
    for (const [, name] of text.matchAll(VAR_READ))
      if (name && !read.has(name)) {
        read.add(name);
        pending.push(name);
      }
  };
  const visit = (list: readonly Node[]) => {
    for (const node of list) {
      if (node.kind === 'block') visit(node.children);
      else if (node.kind === 'rule' && !node.prelude.startsWith('@property')) {
        for (const declaration of splitTop(node.body, ';')) {
          const custom = CUSTOM_DECLARATION.exec(declaration);
          if (custom?.[1]) {
            const list = values.get(custom[1]) ?? [];
            list.push(declaration);
            values.set(custom[1], list);
          } else readIn(declaration);
        }
      }
    }
  };
  visit(nodes);
  readIn(alsoReading);
  // A custom property set by a kept utility (`--tw-shadow: …` in `.shadow`) is read by the same rule; one set only
  // in the theme or the fallbacks is kept when something reads it.
  for (;;) {
    const name = pending.pop();
    if (!name) break;
    for (const declaration of values.get(name) ?? []) readIn(declaration.slice(declaration.indexOf(':') + 1));
  }
  return read;
}

/**
 * `nodes` with the custom properties nothing reads taken out of the rules that set them, and their `@property`
 * rules; keyframes are kept when `uses` names them (null: all kept, to be decided on the pruned text).
 */
function withoutUnread(nodes: readonly Node[], read: ReadonlySet<string>, uses: string | null): Node[] {
  const out: Node[] = [];
  for (const node of nodes) {
    if (node.kind === 'block') {
      const children = withoutUnread(node.children, read, uses);
      out.push(...(children.length > 0 ? [{ ...node, children }] : emptied(node)));
    } else if (node.kind === 'statement') out.push(node);
    else if (node.prelude.startsWith('@property')) {
      if (read.has(node.prelude.slice('@property'.length).trim())) out.push(node);
    } else if (node.prelude.startsWith('@keyframes')) {
      const name = node.prelude
        .slice('@keyframes'.length)
        .trim()
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (uses === null || new RegExp(`(?:^|[\\s:,(])${name}(?:$|[\\s;,})!])`).test(uses)) out.push(node);
    } else if (setsCustomProperties(node.body)) {
      const declarations = splitTop(node.body, ';').filter((declaration) => {
        const custom = CUSTOM_DECLARATION.exec(declaration);
        return custom?.[1] ? read.has(custom[1]) : declaration.trim() !== '';
      });
      if (declarations.length > 0) out.push({ ...node, body: declarations.join(';') });
    } else out.push(node);
  }
  return out;
}

/** The sheet's text of `nodes`. */
export function printSheet(nodes: readonly Node[]): string {
  return nodes
    .map((node) =>
      node.kind === 'statement'
        ? node.text
        : node.kind === 'rule'
          ? `${node.prelude}{${node.body}}`
          : `${node.prelude}{${printSheet(node.children)}}`,
    )
    .join('');
}

const parsed = new Map<string, Node[]>();

/** The rules of `css` that `markup` uses (see the top of this file); the sheet is parsed once. */
export function criticalCss(css: string, markup: string): string {
  let nodes = parsed.get(css);
  if (!nodes) {
    nodes = parseSheet(css);
    // One build's sheet at a time (a new build replaces it).
    parsed.clear();
    parsed.set(css, nodes);
  }
  const kept = matching(nodes, classesOf(markup));
  // The markup's own style attributes may read the theme's properties too.
  const styles = [...markup.matchAll(/\sstyle="([^"]*)"/g)].map((m) => m[1]).join(';');
  const read = propertiesRead(kept, styles);
  const pruned = withoutUnread(kept, read, null);
  // Keyframes are named by what uses them (a rule's animation, a theme property kept): the pruned text without them.
  const isKeyframes = (node: Node) => node.kind === 'rule' && node.prelude.startsWith('@keyframes');
  return printSheet(withoutUnread(pruned, read, printSheet(pruned.filter((node) => !isKeyframes(node)))));
}
