import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, fromPromise, SimulatedClock } from 'xstate';
import type { Credential } from '../../contract/api/credentials';
import {
  type AccreditationEvent,
  accreditationMachine,
  type LoadedAccreditation,
} from '../../machines/accreditation.machine';
import { msUntilExpiry } from '../../src/domain/accreditations';
import { codesInMeta, coverMachine, generatePaths, type ModelSpec } from './harness';

// The clock of the model: the fakes answer as the server would at NOW, and the expiry delay is computed from it.
const NOW = Date.parse('2026-11-23T10:00:00Z');
const DAY = 86_400_000;

const credential = (over: Partial<Credential>): Credential => ({
  sid: 'sid-1',
  user_id: 'user-1',
  credential_type: 'qr',
  state: 'active',
  starts_at: new Date(NOW - DAY).toISOString(),
  ends_at: new Date(NOW + 14 * DAY).toISOString(),
  created_at: new Date(NOW - DAY).toISOString(),
  valid: true,
  ...over,
});

const validQr = credential({});
const expiredQr = credential({ ends_at: new Date(NOW - DAY).toISOString(), valid: false });
const revokedQr = credential({ state: 'revoked', ends_at: new Date(NOW).toISOString(), valid: false });
const face = credential({ sid: 'sid-2', credential_type: 'embedding', ends_at: null });

const loaded = (c: Credential): EventObject =>
  ({
    type: 'xstate.done.actor.loadAccreditation',
    output: { credential: c, holder: 'Unai Usuario', qrImage: null } satisfies LoadedAccreditation,
  }) as EventObject;
const changed = (c: Credential): EventObject =>
  ({ type: 'xstate.done.actor.changeAccreditationState', output: c }) as EventObject;

const ERROR_CODES = [
  'credential_not_found',
  'credential_unavailable',
  'extend_failed',
  'revoke_failed',
  'pdf_unavailable',
];

const provideWith = (actors: Parameters<typeof accreditationMachine.provide>[0]['actors']) =>
  accreditationMachine.provide({
    actors,
    delays: { untilExpiry: ({ context }) => msUntilExpiry(context.credential?.ends_at ?? null, NOW) },
  });

const spec: ModelSpec<typeof accreditationMachine> = {
  machine: provideWith({}),
  input: { userId: 'account-1', sid: null },
  events: (snapshot) => [
    loaded(validQr),
    loaded(expiredQr),
    loaded(revokedQr),
    loaded(face),
    { type: 'xstate.error.actor.loadAccreditation', error: { code: 'credential_not_found' } },
    { type: 'xstate.error.actor.loadAccreditation', error: { code: 'credential_unavailable' } },
    changed(validQr),
    { type: 'xstate.done.actor.fetchPdf', output: new Blob(['%PDF-']) },
    { type: 'xstate.error.actor.fetchPdf', error: new Error('500') },
    { type: 'pdf.get', mode: 'download' } satisfies AccreditationEvent,
    changed(revokedQr),
    { type: 'xstate.error.actor.changeAccreditationState', error: { code: 'credential_unavailable' } },
    ...(
      [
        'accreditation.extend',
        'accreditation.revoke',
        'revoke.confirm',
        'revoke.cancel',
        'accreditation.retry',
      ] as const
    ).map((type) => ({ type }) satisfies AccreditationEvent),
    ...(snapshot.matches({ active: 'timed' })
      ? [{ type: 'xstate.after.untilExpiry.accreditation.active.timed' }]
      : []),
  ],
  serialize: (s) => ({ value: s.value, type: s.context.credential?.credential_type ?? null }),
  provide: (control) =>
    provideWith({
      loadAccreditation: control.actor('loadAccreditation'),
      changeAccreditationState: control.actor('changeAccreditationState'),
      fetchPdf: control.actor('fetchPdf'),
    }),
  errorCodes: { expected: ERROR_CODES, read: codesInMeta('errorCode') },
};

describe('accreditation machine (generated paths)', () => {
  it('walks to every state: active (timed or lasting), expired, revoked and each error', () => {
    const ends = new Set(generatePaths(spec).map((steps) => steps[steps.length - 1]?.expected ?? ''));
    for (const state of ['expired', 'revoked', 'notFound', 'loadFailed', 'extendFailed', 'revokeFailed']) {
      expect([...ends].some((end) => end.includes(`"${state}"`))).toBe(true);
    }
  });

  it('covers every transition and every error code on a real actor with a simulated clock', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});

describe('accreditation machine: expiry by time', () => {
  function start(c: Credential) {
    const clock = new SimulatedClock();
    const calls: { sid: string; state: string }[] = [];
    const actor = createActor(
      provideWith({
        loadAccreditation: fromPromise<
          LoadedAccreditation,
          { userId: string; sid: string | null; holder: string | null }
        >(async () => ({ credential: c, holder: 'Unai Usuario', qrImage: null })),
        changeAccreditationState: fromPromise(async ({ input }) => {
          calls.push({ sid: input.sid, state: input.state });
          return credential({ ends_at: new Date(NOW + 15 * DAY).toISOString() });
        }),
      }),
      { clock, input: { userId: 'account-1', sid: 'sid-1' } } as never,
    );
    actor.start();
    return { actor, clock, calls };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('stays active until the last millisecond of its window and expires at its end', async () => {
    const end = 3 * 60 * 60 * 1000;
    const { actor, clock } = start(credential({ ends_at: new Date(NOW + end).toISOString() }));
    await settle();
    expect(actor.getSnapshot().matches({ active: 'timed' })).toBe(true);
    clock.increment(end - 1);
    expect(actor.getSnapshot().matches('active')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('expired')).toBe(true);
    actor.stop();
  });

  it('extends an expired QR (state active) and then counts down the new 15-day window', async () => {
    const { actor, clock, calls } = start(expiredQr);
    await settle();
    expect(actor.getSnapshot().value).toBe('expired');
    actor.send({ type: 'accreditation.extend' });
    await settle();
    expect(calls).toEqual([{ sid: 'sid-1', state: 'active' }]);
    expect(actor.getSnapshot().matches({ active: 'timed' })).toBe(true);
    clock.increment(15 * DAY - 1);
    expect(actor.getSnapshot().matches('active')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('expired');
    actor.stop();
  });

  it('never expires a face accreditation by time', async () => {
    const { actor, clock } = start(face);
    await settle();
    expect(actor.getSnapshot().matches({ active: 'lasting' })).toBe(true);
    clock.increment(365 * DAY);
    expect(actor.getSnapshot().matches({ active: 'lasting' })).toBe(true);
    actor.stop();
  });
});
