import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, fromPromise, waitFor } from 'xstate';
import {
  type DeviceHandoffEvent,
  deviceHandoffMachine,
  type HandoffCode,
  type HandoffError,
  type HandoffStatus,
} from '../../machines/device-handoff.machine';
import { coverMachine, generatePaths, type ModelSpec } from './harness';

const code: HandoffCode = {
  code: 'ABCD2345',
  onboarding_id: 'o-1',
  expires_at: '2030-01-01T00:10:00.000Z',
  expires_in: 600,
  link: 'https://gambling.example/device-detect?code=ABCD2345',
  qr: 'data:image/png;base64,AAAA',
};

const status = (overrides: Partial<HandoffStatus>): HandoffStatus => ({
  status: 'in_progress',
  legal_terms_accepted: true,
  portrayals: [],
  outcome: null,
  reason: null,
  user_id: null,
  qr_sid: null,
  ...overrides,
});

const done = (id: string, output: unknown): EventObject =>
  ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const failed = (id: string, error: HandoffError | Error): EventObject =>
  ({ type: `xstate.error.actor.${id}`, error }) as EventObject;

const spec: ModelSpec<typeof deviceHandoffMachine> = {
  machine: deviceHandoffMachine,
  input: { onboardingId: 'o-1' },
  events: (snapshot) => [
    done('generateCode', code),
    failed('generateCode', new Error('offline')),
    done('fetchStatus', status({ status: 'legal_terms_accepted' })),
    done('fetchStatus', status({ outcome: 'rejected', reason: 'enforcement_source_unavailable' })),
    done('fetchStatus', status({ status: 'completed', outcome: 'accepted', user_id: 'u-1', qr_sid: 'q-1' })),
    failed('fetchStatus', { status: 404 }),
    failed('fetchStatus', { status: 0 }),
    { type: 'code.renew' } satisfies DeviceHandoffEvent,
    { type: 'xstate.after.statusInterval.deviceHandoff.progress.waiting' },
    // The harness moves the clock by the whole lifetime of the code: offered only when no 3 s poll is
    // waiting, so that the jump cannot also fire it (which the model, one transition a step, would not expect).
    ...(snapshot.matches({ progress: 'waiting' })
      ? []
      : [{ type: 'xstate.after.codeLifetime.deviceHandoff.code.active' }]),
  ],
  provide: (control) =>
    deviceHandoffMachine.provide({
      actors: { generateCode: control.actor('generateCode'), fetchStatus: control.actor('fetchStatus') },
    }),
};

describe('device handoff machine (generated paths)', () => {
  it('asks for the status again 3 s after each answer and stops once the registration is finished', () => {
    const paths = generatePaths(spec).map((steps) => steps.map((step) => step.event.type));
    expect(
      paths.some((path) => path.includes('xstate.after.statusInterval.deviceHandoff.progress.waiting')),
    ).toBe(true);
    expect(deviceHandoffMachine.implementations.delays.statusInterval).toBe(3000);
  });

  it('covers every transition on a real actor with a simulated clock', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
  });

  it('says the progress could not be checked after an unanswered question, until one is answered', async () => {
    const answers: (() => Promise<HandoffStatus>)[] = [
      () => Promise.reject({ status: 0 } satisfies HandoffError),
      () => Promise.resolve(status({ status: 'legal_terms_accepted' })),
    ];
    const actor = createActor(
      deviceHandoffMachine.provide({
        actors: {
          generateCode: fromPromise(async () => code),
          fetchStatus: fromPromise(() => (answers.shift() as () => Promise<HandoffStatus>)()),
        },
        delays: { statusInterval: 0 },
      }),
      { input: { onboardingId: 'o-1' } },
    ).start();
    const seen: boolean[] = [];
    actor.subscribe((snapshot) => {
      if (snapshot.matches({ progress: 'waiting' })) seen.push(snapshot.context.statusFailed);
    });
    await waitFor(actor, () => seen.length >= 2);
    actor.stop();
    expect(seen.slice(0, 2)).toEqual([true, false]);
  });
});
