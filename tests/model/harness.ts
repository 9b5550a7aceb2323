import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import {
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  createActor,
  type EventObject,
  fromPromise,
  getInitialSnapshot,
  getNextSnapshot,
  type InspectionEvent,
  SimulatedClock,
  type SnapshotFrom,
} from 'xstate';
import { getShortestPaths } from 'xstate/graph';

// Model-based testing from the real machines (ARCHITECTURE.md "Machines"): paths are generated with
// xstate/graph, extended by one step for every event each reachable state accepts, and replayed on a
// real actor whose effects are controllable fakes and whose time is a SimulatedClock. Transition
// coverage is measured from what the replayed actors really did.

export type Transition = { key: string; source: string; event: string; target: string; guard?: string };

function walk(node: AnyStateNode, visit: (node: AnyStateNode) => void): void {
  visit(node);
  for (const child of Object.values(node.states)) walk(child as AnyStateNode, visit);
}

function transitionKey(node: AnyStateNode, t: AnyTransitionDefinition): string | undefined {
  const candidates = t.eventType === '' ? node.always : node.transitions.get(t.eventType);
  const index = candidates?.indexOf(t) ?? -1;
  if (index < 0) return undefined;
  return `${node.id} --${t.eventType || 'always'}[${index}]--> ${t.target?.map((n: AnyStateNode) => n.id).join(',') ?? '(internal)'}`;
}

/** Every (state, event, guarded alternative, target) the machine declares. */
export function declaredTransitions(machine: AnyStateMachine): Transition[] {
  const found: Transition[] = [];
  walk(machine.root, (node) => {
    const all: AnyTransitionDefinition[] = [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
    for (const t of all) {
      const key = transitionKey(node, t);
      if (!key) continue;
      found.push({
        key,
        source: node.id,
        event: t.eventType || 'always',
        target: t.target?.map((n: AnyStateNode) => n.id).join(',') ?? '(internal)',
        guard:
          typeof t.guard === 'object' && t.guard ? String((t.guard as { type?: string }).type) : undefined,
      });
    }
  });
  return found;
}

/**
 * What a coverage report is valid for: a hash of the machine's declared transitions and of its definition
 * (machine.toJSON(): states, events, targets, guards and actors by name, meta). A report whose fingerprint
 * differs from the machine's current one was written for another version of it (npm run test:model-coverage).
 */
export function machineFingerprint(machine: AnyStateMachine): string {
  const content = JSON.stringify({
    transitions: declaredTransitions(machine).map((t) => t.key),
    definition: machine.toJSON(),
  });
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}

/** What coverMachine writes to coverage/model/<machine id>.json. */
export interface CoverageReport {
  machine: string;
  /** machineFingerprint of the machine the paths were replayed on. */
  fingerprint: string;
  /** The declared transitions (keys) of that machine. */
  declared: string[];
  paths: number;
  transitions: number;
  covered: number;
  missing: string[];
  errorCodes?: { total: number; covered: number; missing: string[] };
}

/** Promise actors whose settling the test decides, one pending call per invoked actor id. */
export class ActorControl {
  private pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }[]>();
  readonly calls: { src: string; input: unknown }[] = [];

  // biome-ignore lint/suspicious/noExplicitAny: a fake stands in for actors of any output type.
  actor(src: string): any {
    return fromPromise(({ input }: { input: unknown }) => {
      this.calls.push({ src, input });
      return new Promise((resolve, reject) => {
        const queue = this.pending.get(src) ?? [];
        queue.push({ resolve, reject });
        this.pending.set(src, queue);
      });
    });
  }

  settle(src: string, outcome: { output: unknown } | { error: unknown }): void {
    const next = this.pending.get(src)?.shift();
    if (!next) throw new Error(`no pending call of actor "${src}" to settle`);
    if ('output' in outcome) next.resolve(outcome.output);
    else next.reject(outcome.error);
  }
}

// setImmediate runs once the promise callbacks of the fake actors have settled, without a 1 ms timer.
const flush = () => new Promise((resolve) => setImmediate(resolve));

export interface ModelSpec<M extends AnyStateMachine> {
  machine: M;
  /** The events worth trying in a state, including xstate.done/error.actor.<id> and xstate.after events. */
  events: (snapshot: SnapshotFrom<M>) => EventObject[];
  /** What distinguishes two states for path generation (defaults to the state value). */
  serialize?: (snapshot: SnapshotFrom<M>) => unknown;
  /** Machine with real-looking fakes for every named effect; actors are taken from `control`. */
  provide: (control: ActorControl) => M;
  input?: unknown;
  /** Most traversal steps xstate/graph may take before giving up (default 2000). */
  limit?: number;
  /** Spec error codes the machine must reach, and how a snapshot shows the ones it is in. */
  errorCodes?: { expected: readonly string[]; read: (snapshot: SnapshotFrom<M>) => string[] };
}

/** Reads error codes from the meta of the active states (e.g. meta.errorCode, meta.captureError). */
export function codesInMeta(...keys: string[]) {
  return (snapshot: unknown): string[] => {
    const codes: string[] = [];
    const metas = (snapshot as { getMeta(): Record<string, Record<string, unknown> | undefined> }).getMeta();
    for (const meta of Object.values(metas)) {
      for (const key of keys) {
        const value = meta?.[key];
        if (typeof value === 'string') codes.push(value);
      }
    }
    return codes;
  };
}

export interface Replay {
  path: string;
  taken: Set<string>;
  /** Error codes shown along the path (when the spec declares errorCodes). */
  codes: Set<string>;
}

function delayOf(machine: AnyStateMachine, name: string, snapshot: unknown): number {
  const numeric = Number(name);
  if (!Number.isNaN(numeric)) return numeric;
  const delay = (machine.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay === 'number') return delay;
  if (typeof delay === 'function') return delay({ context: (snapshot as { context: unknown }).context });
  throw new Error(`unknown delay ${name}`);
}

export type PathStep = { event: EventObject; expected: string };

export function generatePaths<M extends AnyStateMachine>(spec: ModelSpec<M>): PathStep[][] {
  const serialize = (s: SnapshotFrom<M>) =>
    JSON.stringify(spec.serialize ? spec.serialize(s) : (s as AnyMachineSnapshot).value);
  const accepted = (s: SnapshotFrom<M>) => spec.events(s).filter((e) => (s as AnyMachineSnapshot).can(e));
  const shortest = getShortestPaths(spec.machine, {
    events: accepted,
    serializeState: serialize,
    input: spec.input,
    limit: spec.limit ?? 2000,
  } as never) as unknown as {
    steps: { event: EventObject; state: SnapshotFrom<M> }[];
    state: SnapshotFrom<M>;
  }[];
  // xstate/graph keeps one representative snapshot per serialized state, so the states along a path are
  // recomputed from the path's events. Then one more step from every reachable state with every event
  // it accepts: that is what covers every transition and not only every state.
  const initial = getInitialSnapshot(spec.machine, spec.input as never) as SnapshotFrom<M>;
  const paths: PathStep[][] = [];
  const seen = new Set<string>();
  for (const path of shortest) {
    let snapshot = initial;
    const prefix: PathStep[] = [];
    for (const step of path.steps) {
      if (step.event.type === 'xstate.init') continue;
      snapshot = getNextSnapshot(spec.machine, snapshot, step.event as never) as SnapshotFrom<M>;
      prefix.push({ event: step.event, expected: serialize(snapshot) });
    }
    for (const event of [undefined, ...accepted(snapshot)]) {
      const steps = event
        ? [
            ...prefix,
            {
              event,
              expected: serialize(getNextSnapshot(spec.machine, snapshot, event as never) as SnapshotFrom<M>),
            },
          ]
        : prefix;
      const id = JSON.stringify(steps.map((step) => step.event));
      if (seen.has(id)) continue;
      seen.add(id);
      paths.push(steps);
    }
  }
  return paths;
}

/** Replays a path on a real actor; throws when the actor ends a step elsewhere than the model said. */
export async function replay<M extends AnyStateMachine>(
  spec: ModelSpec<M>,
  steps: PathStep[],
): Promise<Replay> {
  const serialize = (s: SnapshotFrom<M>) =>
    JSON.stringify(spec.serialize ? spec.serialize(s) : (s as AnyMachineSnapshot).value);
  const control = new ActorControl();
  const clock = new SimulatedClock();
  const machine = spec.provide(control);
  const taken = new Set<string>();
  const codes = new Set<string>();
  let root: AnyActorRef | undefined;
  const actor = createActor(machine, {
    clock,
    input: spec.input,
    inspect: (inspection: InspectionEvent) => {
      // Before `root` is known the actor is computing its initial state (its own eventless transitions).
      if (inspection.type !== '@xstate.microstep' || (root !== undefined && inspection.actorRef !== root))
        return;
      for (const t of (inspection as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) {
        const key = transitionKey(t.source, t);
        if (key) taken.add(key);
      }
    },
  } as never);
  root = actor;
  actor.start();
  await flush();
  for (const [index, { event, expected }] of steps.entries()) {
    const type = event.type;
    if (type.startsWith('xstate.done.actor.')) {
      control.settle(type.slice('xstate.done.actor.'.length), {
        output: (event as { output?: unknown }).output,
      });
    } else if (type.startsWith('xstate.error.actor.')) {
      control.settle(type.slice('xstate.error.actor.'.length), {
        error: (event as { error?: unknown }).error,
      });
    } else if (type.startsWith('xstate.after.')) {
      const name = type.slice('xstate.after.'.length).split('.')[0] ?? '';
      clock.increment(delayOf(machine, name, actor.getSnapshot()));
    } else {
      actor.send(event as never);
    }
    await flush();
    for (const code of spec.errorCodes?.read(actor.getSnapshot() as SnapshotFrom<M>) ?? []) codes.add(code);
    const actual = serialize(actor.getSnapshot() as SnapshotFrom<M>);
    if (actual !== expected) {
      actor.stop();
      const path = steps.map((s) => s.event.type).join(' → ');
      throw new Error(
        `step ${index + 1} (${type}) of [${path}] ended in ${actual}, the model says ${expected}`,
      );
    }
  }
  actor.stop();
  return { path: steps.map((s) => s.event.type).join(' → '), taken, codes };
}

/**
 * Replays every generated path and reports which declared transitions were never taken. Several specs of the
 * same machine (other inputs, other fake answers) add up to one report.
 */
export async function coverMachine<M extends AnyStateMachine>(
  specOrSpecs: ModelSpec<M> | ModelSpec<M>[],
  { writeReport = true } = {},
): Promise<CoverageReport> {
  const specs = Array.isArray(specOrSpecs) ? specOrSpecs : [specOrSpecs];
  const machine = specs[0]?.machine;
  if (!machine) throw new Error('coverMachine needs at least one spec');
  const taken = new Set<string>();
  const codes = new Set<string>();
  let pathCount = 0;
  for (const spec of specs) {
    const paths = generatePaths(spec);
    pathCount += paths.length;
    for (const steps of paths) {
      const result = await replay(spec, steps);
      for (const key of result.taken) taken.add(key);
      for (const code of result.codes) codes.add(code);
    }
  }
  const declared = declaredTransitions(machine);
  const missing = declared.filter((t) => !taken.has(t.key));
  const expectedCodes = [...new Set(specs.flatMap((spec) => spec.errorCodes?.expected ?? []))];
  const report: CoverageReport = {
    machine: machine.id,
    fingerprint: machineFingerprint(machine),
    declared: declared.map((t) => t.key),
    paths: pathCount,
    transitions: declared.length,
    covered: declared.length - missing.length,
    missing: missing.map((t) => t.key),
    ...(expectedCodes.length > 0
      ? {
          errorCodes: {
            total: expectedCodes.length,
            covered: expectedCodes.filter((code) => codes.has(code)).length,
            missing: expectedCodes.filter((code) => !codes.has(code)),
          },
        }
      : {}),
  };
  if (!writeReport) return report;
  mkdirSync('coverage/model', { recursive: true });
  writeFileSync(`coverage/model/${machine.id}.json`, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
