// npm run machines: for every machines/*.machine.ts, docs/machines/<id>.json (the machine's definition),
// <id>.mmd (a Mermaid stateDiagram-v2) and <id>.md (the diagram where GitHub draws it, and a table of the
// states), plus docs/machines/README.md indexing them. `npm run machines -- --check` writes nothing and exits
// 1 when the committed files differ from what would be generated (npm test runs it, so they never go stale).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { isErrorKey, machineFiles } from './machines-check';

export const OUT_DIR = 'docs/machines';

type Transition = AnyStateNode['transitions'] extends Map<string, (infer T)[]> ? T : never;

/** The machines a module exports (any export that is an XState machine). */
export function machinesOf(module: Record<string, unknown>): AnyStateMachine[] {
  return Object.values(module).filter(
    (value): value is AnyStateMachine =>
      typeof value === 'object' &&
      value !== null &&
      (value as { __xstatenode?: unknown }).__xstatenode === true,
  );
}

const childrenOf = (node: AnyStateNode): AnyStateNode[] => Object.values(node.states) as AnyStateNode[];

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...childrenOf(node).flatMap(allNodes)];
}

/** Every transition of a state: its events (after, done and error events included) and `always`. */
function transitionsOf(node: AnyStateNode): { event: string; transition: Transition }[] {
  const list: { event: string; transition: Transition }[] = [];
  for (const [event, transitions] of node.transitions) {
    for (const transition of transitions) list.push({ event, transition });
  }
  for (const transition of node.always ?? []) list.push({ event: '', transition: transition as Transition });
  return list;
}

export function countTransitions(machine: AnyStateMachine): number {
  return allNodes(machine.root).reduce((sum, node) => sum + transitionsOf(node).length, 0);
}

/** Meta as plain key → text pairs (screen, error codes, anything else a state says of itself). */
function metaOf(node: AnyStateNode): Record<string, string> {
  const meta = (node.meta ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(meta)
      .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
      .map(([key, value]) => [key, String(value)]),
  );
}

const errorCodesOf = (node: AnyStateNode) =>
  Object.entries(metaOf(node))
    .filter(([key]) => isErrorKey(key))
    .map(([key, code]) => ({ key, code }));

function invokesOf(node: AnyStateNode): string[] {
  return node.invoke.map((invoke) => (typeof invoke.src === 'string' ? invoke.src : `${invoke.id} (inline)`));
}

/** An event as a reader says it: `after pollTimeout`, `done fetchX`, `error fetchX`, `done`, `always`. */
function eventLabel(node: AnyStateNode, event: string): string {
  if (event === '') return 'always';
  const after = node.after.find((delayed) => delayed.eventType === event);
  if (after) return `after ${String(after.delay)}`;
  if (event.startsWith('xstate.done.actor.')) return `done ${event.slice('xstate.done.actor.'.length)}`;
  if (event.startsWith('xstate.error.actor.')) return `error ${event.slice('xstate.error.actor.'.length)}`;
  if (event.startsWith('xstate.done.state.')) return 'done';
  return event;
}

function guardLabel(guard: unknown): string | undefined {
  if (guard === undefined || guard === null) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return 'inline guard';
  const { type, params } = guard as { type?: unknown; params?: unknown };
  if (typeof type !== 'string') return 'guard';
  if (params && typeof params === 'object' && !Array.isArray(params)) {
    const literals = Object.values(params).filter((value) =>
      ['string', 'number', 'boolean'].includes(typeof value),
    );
    if (literals.length > 0) return `${type} ${literals.join(', ')}`;
  }
  return type;
}

// Mermaid reads `:`, `;`, `#`, quotes and braces as syntax; labels keep only what cannot break it.
const text = (value: string) =>
  value
    .replace(/["#;:{}<>]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const KEYWORDS = new Set([
  'end',
  'state',
  'note',
  'as',
  'direction',
  'class',
  'classDef',
  'hide',
  'left',
  'right',
]);
/** A Mermaid id for a state: its path, joined with `_` (Mermaid's state names are global to a diagram). */
function idOf(node: AnyStateNode): string {
  if (node.path.length === 0) return 'root';
  const id = node.path.map((key: string) => key.replace(/[^A-Za-z0-9_]/g, '_')).join('_');
  return KEYWORDS.has(id) ? `s_${id}` : id;
}

/** The innermost state that holds both ends of a transition: where Mermaid has to be told of it. */
function holderOf(source: AnyStateNode, target: AnyStateNode): AnyStateNode {
  let holder: AnyStateNode | undefined = source.parent;
  const isAncestorOf = (a: AnyStateNode, b: AnyStateNode) => {
    for (let node: AnyStateNode | undefined = b.parent; node; node = node.parent) if (node === a) return true;
    return false;
  };
  while (holder && holder !== target.parent && !isAncestorOf(holder, target)) holder = holder.parent;
  return holder ?? source.machine.root;
}

const isAncestorOrSelf = (a: AnyStateNode, b: AnyStateNode) => {
  for (let node: AnyStateNode | undefined = b; node; node = node.parent) if (node === a) return true;
  return false;
};
const isComposite = (node: AnyStateNode) => node.type === 'compound' || node.type === 'parallel';

export function mermaidOf(machine: AnyStateMachine): string {
  const edges = new Map<AnyStateNode, string[]>();
  // Mermaid cannot draw an edge between a composite state and a state inside it: such a transition leaves
  // from an "any state" marker inside the composite, or enters a "re-enter" marker inside it.
  const markers = new Map<AnyStateNode, Set<'any' | 'reenter'>>();
  const mark = (node: AnyStateNode, kind: 'any' | 'reenter') => {
    markers.set(node, (markers.get(node) ?? new Set()).add(kind));
    return `${idOf(node)}__${kind}`;
  };
  for (const node of allNodes(machine.root)) {
    for (const { event, transition } of transitionsOf(node)) {
      const targets = (transition.target ?? []) as AnyStateNode[];
      const guard = guardLabel(transition.guard);
      const label = text(`${eventLabel(node, event)}${guard ? ` [${guard}]` : ''}`);
      for (const target of targets) {
        let holder = holderOf(node, target);
        let from = idOf(node);
        let to = idOf(target);
        if (isComposite(node) && isAncestorOrSelf(node, target)) {
          from = mark(node, 'any');
          holder = node;
        }
        if (isComposite(target) && isAncestorOrSelf(target, node)) {
          to = mark(target, 'reenter');
          holder = target;
        }
        const list = edges.get(holder) ?? [];
        list.push(`${from} --> ${to} : ${label}`);
        edges.set(holder, list);
      }
    }
  }

  const lines = ['stateDiagram-v2'];
  const write = (node: AnyStateNode, indent: string) => {
    const children = childrenOf(node);
    if (node.type === 'parallel') {
      children.forEach((region, index) => {
        if (index > 0) lines.push(`${indent}--`);
        writeState(region, indent);
      });
    } else {
      const initial = node.initial?.target?.[0] as AnyStateNode | undefined;
      if (initial) lines.push(`${indent}[*] --> ${idOf(initial)}`);
      for (const child of children) writeState(child, indent);
    }
    for (const kind of markers.get(node) ?? []) {
      const label = kind === 'any' ? `any state of ${node.key}` : `re-enter ${node.key}`;
      lines.push(`${indent}state "${text(label)}" as ${idOf(node)}__${kind}`);
    }
    for (const child of children) if (child.type === 'final') lines.push(`${indent}${idOf(child)} --> [*]`);
    for (const edge of edges.get(node) ?? []) lines.push(`${indent}${edge}`);
  };
  const writeState = (node: AnyStateNode, indent: string) => {
    const id = idOf(node);
    const meta = metaOf(node);
    const details = [
      ...(meta.screen ? [`screen ${meta.screen}`] : []),
      ...errorCodesOf(node).map(({ key, code }) => `${key} ${code}`),
      ...invokesOf(node).map((src) => `invokes ${src}`),
      ...(node.type === 'history' ? ['history'] : []),
    ];
    if (node.type === 'compound' || node.type === 'parallel') {
      const label = [node.key, ...details].map(text).join(' · ');
      lines.push(`${indent}state "${label}" as ${id}`);
      lines.push(`${indent}state ${id} {`);
      write(node, `${indent}  `);
      lines.push(`${indent}}`);
    } else {
      lines.push(`${indent}state "${text(node.key)}" as ${id}`);
      for (const detail of details) lines.push(`${indent}${id} : ${text(detail)}`);
    }
  };
  // The machine is a composite state of its own: Mermaid draws regions (`--`) only inside one, and the
  // machine's own transitions (its root `on`) need a state to leave from.
  lines.push(`  state "${text(machine.id)}" as root`, '  state root {');
  write(machine.root, '    ');
  lines.push('  }');
  return `${lines.join('\n')}\n`;
}

const cell = (value: string) => value.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

export function markdownOf(machine: AnyStateMachine, file: string): string {
  const rows = allNodes(machine.root)
    .slice(1)
    .map((node) => {
      const meta = metaOf(node);
      const errors = errorCodesOf(node)
        .map(({ key, code }) => `${key} \`${code}\``)
        .join(', ');
      return `| \`${node.path.join('.')}\` | ${node.type} | ${meta.screen ?? ''} | ${errors} | ${invokesOf(node).join(', ')} | ${cell(node.description ?? '')} |`;
    });
  return [
    `# ${machine.id}`,
    '',
    `Generated from [\`${file}\`](../../${file}) by \`npm run machines\`; do not edit by hand.`,
    '',
    machine.root.description ?? '_No description yet._',
    '',
    '```mermaid',
    mermaidOf(machine).trimEnd(),
    '```',
    '',
    `${allNodes(machine.root).length - 1} states, ${countTransitions(machine)} transitions.`,
    '',
    '| state | type | screen | error codes | invokes | description |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** The definition without functions (inline implementations show as null, as JSON.stringify leaves them). */
export function jsonOf(machine: AnyStateMachine): string {
  return `${JSON.stringify(machine.toJSON(), null, 2)}\n`;
}

export function indexOf(entries: { machine: AnyStateMachine; file: string }[]): string {
  return [
    '# Machines',
    '',
    'Generated by `npm run machines` from `machines/*.machine.ts`; do not edit by hand. `npm test` runs',
    '`npm run machines -- --check`, which fails when these files differ from what the machines would give.',
    'Each machine has `<id>.md` (the diagram, drawn by GitHub, and its states), `<id>.mmd` (the Mermaid source)',
    'and `<id>.json` (the definition, from `machine.toJSON()`).',
    '',
    '| machine | file | states | transitions | description |',
    '|---|---|---|---|---|',
    ...entries.map(
      ({ machine, file }) =>
        `| [${machine.id}](${machine.id}.md) | [\`${file}\`](../../${file}) | ${allNodes(machine.root).length - 1} | ${countTransitions(machine)} | ${cell(machine.root.description ?? '')} |`,
    ),
    '',
  ].join('\n');
}

/** Every file docs/machines should hold, by name. */
export async function generate(files: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const entries: { machine: AnyStateMachine; file: string }[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
    const machines = machinesOf(module);
    if (machines.length === 0) throw new Error(`${file} exports no machine`);
    for (const machine of machines) {
      if (out.has(`${machine.id}.json`)) throw new Error(`two machines have the id ${machine.id}`);
      entries.push({ machine, file });
      out.set(`${machine.id}.json`, jsonOf(machine));
      out.set(`${machine.id}.mmd`, mermaidOf(machine));
      out.set(`${machine.id}.md`, markdownOf(machine, file));
    }
  }
  out.set('README.md', indexOf(entries));
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const check = process.argv.includes('--check');
  const wanted = await generate(machineFiles());
  const present = existsSync(OUT_DIR) ? readdirSync(OUT_DIR) : [];
  if (check) {
    const stale = [
      ...[...wanted].filter(([name, content]) => {
        const path = join(OUT_DIR, name);
        return !existsSync(path) || readFileSync(path, 'utf8') !== content;
      }),
    ].map(([name]) => join(OUT_DIR, name));
    const extra = present.filter((name) => !wanted.has(name)).map((name) => join(OUT_DIR, name));
    if (stale.length + extra.length > 0) {
      console.error(
        [
          'docs/machines is out of date with machines/ (run `npm run machines` and commit the result):',
          ...stale.map((path) => `  differs or missing: ${path}`),
          ...extra.map((path) => `  not generated (remove): ${path}`),
        ].join('\n'),
      );
      process.exitCode = 1;
    } else {
      console.log(`docs/machines is up to date (${wanted.size} files).`);
    }
  } else {
    mkdirSync(OUT_DIR, { recursive: true });
    for (const name of present) if (!wanted.has(name)) rmSync(join(OUT_DIR, name));
    for (const [name, content] of wanted) writeFileSync(join(OUT_DIR, name), content);
    console.log(
      `Wrote ${wanted.size} files to ${OUT_DIR}/: ${[...wanted.keys()].map((n) => basename(n)).join(', ')}`,
    );
  }
}
