// The first paint of a data screen with the person's data in it. A data screen's largest paint is what its first
// calls bring (the person's QR, their visits, the accesses): painted by the app, it came after the whole app had
// downloaded and run, 2.7-3.1 s on a phone. For a request that carries the person's session (the cookie the app
// keeps in step with its access token, src/auth/paint-cookie.ts), the server makes the screen's first calls to its
// own API with that token, starts the screen's machines with their real actors (src/actors, the app's own code)
// over those answers, and draws the screen in the state they settle in: the same components as the app, so the
// same elements. The answers travel with the page (src/tenant/load.ts takes them), so the app's own first calls
// take them instead of asking again, and its screen, drawn with the same data, takes the paint's place when it has
// settled as well (src/app/shell-release.ts). Server-side only, like shell.tsx.
import type { ReactNode } from 'react';
import { type AnyActorLogic, type AnyActorRef, createActor, createMachine, type Snapshot } from 'xstate';
import type { PaintedAnswer } from '../../contract/tenant/boot';
import { createApiClient } from '../api/client';
import { passesGuard, type Session } from '../auth/access';
import { sessionFromAccessToken } from '../auth/token';
import { type ScreenName, screens } from '../domain/screens';
import type { Runtime } from '../runtime/context';
import { type MachineImplementations, renderWithMachines } from '../runtime/machines';
import { renderOpenedAt } from '../runtime/opened-at';
import { PaintedPictures } from '../runtime/painted-pictures';
import { accountMachines } from './machines/account';
import { accreditationMachines } from './machines/accreditations';
import { auditMachines } from './machines/audit';
import { visitMachines } from './machines/visits';
import { renderShellWith, type ShellInput } from './shell';

/** The screens painted with the person's data: their largest paint is that data. */
export const DATA_SCREENS: readonly ScreenName[] = [
  'UserHome',
  'MyAccreditations',
  'UserProfile',
  'MyVisits',
  'VisitList',
  'AuditAccesses',
];

const MACHINES: Partial<MachineImplementations> = {
  ...accreditationMachines,
  ...accountMachines,
  ...visitMachines,
  ...auditMachines,
};

/** How long the screen's machines may take to settle before the page goes out with the generic paint. */
const SETTLE_MS = 2000;

export interface DataPaintInput extends ShellInput {
  /** The person's access token, from the cookie: the calls carry it as the app's would. */
  accessToken: string;
  /** The page's origin (`http://host:port`): the API's addresses are built on it, as the browser does. */
  origin: string;
  /** The server's own API: a request as the browser would send it (with the page's Host), answered in-process. */
  fetch: (request: Request) => Promise<Response>;
}

export interface DataPaint {
  markup: string;
  answers: PaintedAnswer[];
  /** The instant the screen was drawn as opening at: the app's screen opens at it too, and asks the same. */
  openedAt: Date;
}

type Recorded = { key: string; logic: AnyActorLogic; input: unknown };

/**
 * The screen's machines, each standing in for the registered one: on the first render, recording which machines the
 * screen starts (with their input, which only the component knows); on the second, starting in the state they
 * settled in. A machine is known by its id and the order the screen starts it in.
 */
function standIns(
  mode: { record: Recorded[] } | { settled: ReadonlyMap<string, Snapshot<unknown>> },
): Partial<MachineImplementations> {
  const started = new Map<string, number>();
  const out: Record<string, unknown> = {};
  for (const [id, implement] of Object.entries(MACHINES)) {
    out[id] = (...args: unknown[]) => {
      const logic = (implement as (...a: unknown[]) => AnyActorLogic)(...args);
      // DeleteAccount's draft store and the like are no actor logic: as registered.
      if (typeof logic?.getInitialSnapshot !== 'function') return logic;
      const n = started.get(id) ?? 0;
      started.set(id, n + 1);
      const key = `${id}#${n}`;
      const wrapped = Object.create(logic) as AnyActorLogic;
      wrapped.getInitialSnapshot = (scope, input) => {
        if ('record' in mode) mode.record.push({ key, logic, input });
        else {
          const settled = mode.settled.get(key);
          if (settled) return settled;
        }
        return logic.getInitialSnapshot(scope, input);
      };
      return wrapped;
    };
  }
  return out as Partial<MachineImplementations>;
}

/**
 * Whether an actor has nothing under way: a machine waiting for an event with no child at work, or any actor that
 * has ended. A promise (a screen's own call, started beside its machine) is at work while it is active: only a
 * machine waits while active.
 */
export const isSettled = (actor: AnyActorRef): boolean => {
  const snapshot = actor.getSnapshot() as Snapshot<unknown> & {
    value?: unknown;
    children?: Record<string, AnyActorRef>;
  };
  if (snapshot.status !== 'active') return true;
  if (!('value' in snapshot)) return false;
  return Object.values(snapshot.children ?? {}).every(isSettled);
};

async function settle(actors: readonly AnyActorRef[], deadline: number): Promise<boolean> {
  while (!actors.every(isSettled)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return true;
}

/** The pictures the machines hold (the QR), as data: URLs. */
async function picturesOf(snapshots: readonly Snapshot<unknown>[]): Promise<Map<Blob, string>> {
  const pictures = new Map<Blob, string>();
  for (const snapshot of snapshots) {
    const context = (snapshot as { context?: unknown }).context;
    if (typeof context !== 'object' || context === null) continue;
    for (const value of Object.values(context)) {
      if (value instanceof Blob && value.type.startsWith('image/')) {
        const base64 = Buffer.from(await value.arrayBuffer()).toString('base64');
        pictures.set(value, `data:${value.type};base64,${base64}`);
      }
    }
  }
  return pictures;
}

/** A body as the page carries it: text as it is, anything else (the QR's PNG) in base64. */
async function answerOf(url: URL, response: Response): Promise<PaintedAnswer> {
  const contentType = response.headers.get('content-type') ?? '';
  const textual = /json|text|xml/.test(contentType);
  const body = textual ? await response.text() : Buffer.from(await response.arrayBuffer()).toString('base64');
  return {
    url: `${url.pathname}${url.search}`,
    status: response.status,
    contentType,
    body,
    ...(textual ? {} : { encoding: 'base64' as const }),
  };
}

/**
 * The screen drawn with the person's data, and the answers it was drawn from; undefined when it cannot be: the
 * token is not one the API takes (another tenant's, expired, revoked, not a token), the person may not open the
 * screen, a call failed in a way the screen does not draw (the API's fault, a refusal), or the machines did not
 * settle in time. The page then goes out with the generic paint.
 */
export async function renderShellWithData(input: DataPaintInput): Promise<DataPaint | undefined> {
  if (!DATA_SCREENS.includes(input.screen)) return undefined;
  let session: Session;
  try {
    session = sessionFromAccessToken(input.accessToken);
  } catch {
    return undefined;
  }
  // A screen the person may not open: the app sends them on, and the paint shows nothing of theirs meanwhile.
  if (!passesGuard(screens[input.screen].guard, session, input.settings)) return undefined;
  const answers: PaintedAnswer[] = [];
  let refused = false;
  const inProcess: typeof fetch = async (resource, init) => {
    const request = new Request(resource, init);
    const response = await input.fetch(request);
    // Refused (the token, the rights), the server's fault, anything but an answer or the 404 a screen draws (no
    // QR yet): not a page to paint with data.
    if (!response.ok && response.status !== 404) refused = true;
    if (request.method === 'GET') answers.push(await answerOf(new URL(request.url), response.clone()));
    return response;
  };
  const apiClient = createApiClient({
    baseUrl: `${input.origin}/api`,
    tenantId: input.tenant,
    getToken: () => input.accessToken,
    renewOnce: async () => false,
    onUnauthorized: () => {
      refused = true;
    },
    notify: () => undefined,
    navigate: () => undefined,
    loading: { start: () => undefined, end: () => undefined },
    fetch: inProcess,
    retryDelay: () => 0,
  });
  const sessionActor = createActor(
    createMachine({
      id: 'session',
      context: { session },
      initial: 'authenticated',
      states: { authenticated: { initial: 'active', states: { active: {} } } },
    }),
  ).start();
  const adapt = (base: Runtime): Runtime => ({
    ...base,
    session: sessionActor as unknown as Runtime['session'],
    apiClient: () => Promise.resolve(apiClient),
  });

  const openedAt = new Date();
  const render = (machines: Partial<MachineImplementations>, wrap?: (screen: ReactNode) => ReactNode) =>
    renderOpenedAt(openedAt, () => renderWithMachines(machines, () => renderShellWith(input, adapt, wrap)));
  const recorded: Recorded[] = [];
  render(standIns({ record: recorded }));
  if (recorded.length === 0) return undefined;
  // Each logic reaches the API through the runtime it was made with: the one above.
  const actors = recorded.map(({ logic, input: given }) => createActor(logic, { input: given }));
  for (const actor of actors) actor.start();
  try {
    const settled = await settle(actors, Date.now() + SETTLE_MS);
    // A machine that failed (its own error, not a state of the screen) is not drawn.
    if (!settled || refused || actors.some((actor) => actor.getSnapshot().status === 'error'))
      return undefined;
    const snapshots = new Map(
      recorded.map(({ key }, i) => [key, actors[i]?.getSnapshot() as Snapshot<unknown>] as const),
    );
    const pictures = await picturesOf([...snapshots.values()]);
    const markup = render(standIns({ settled: snapshots }), (screen) => (
      <PaintedPictures.Provider value={pictures}>{screen}</PaintedPictures.Provider>
    ));
    return { markup, answers, openedAt };
  } finally {
    for (const actor of actors) actor.stop();
    sessionActor.stop();
  }
}
