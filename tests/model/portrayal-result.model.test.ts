import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import type { PortrayalResult } from '../../contract/api/onboarding';
import { PORTRAYAL_ERROR_CODES } from '../../contract/domain/enrolment';
import { type PortrayalFetch, portrayalResultMachine } from '../../machines/portrayal-result.machine';
import { coverMachine, generatePaths, type ModelSpec } from './harness';

const result: PortrayalResult = {
  document_info: {
    first_name: null,
    last_name: null,
    birth_date: null,
    id_number: null,
    document_number: null,
    expiry_date: null,
    expedition_country: null,
    nationality: null,
    document_type: 'passport',
  },
  selfie_authenticity_valid: true,
};

const fetched = (output: PortrayalFetch): EventObject =>
  ({ type: 'xstate.done.actor.fetchPortrayalResult', output }) as EventObject;

// The 8th request goes out at 14 s; the next interval would end at 16 s, when the poll gives up instead.
const LAST_ATTEMPT = 8;

const failureOf = (snapshot: { status: string; output?: unknown }): string[] => {
  const output = snapshot.output as { status: string; failure?: string } | undefined;
  return snapshot.status === 'done' && output?.failure ? [output.failure] : [];
};

const spec: ModelSpec<typeof portrayalResultMachine> = {
  machine: portrayalResultMachine,
  input: { portrayalId: 'p-1' },
  events: (snapshot) => [
    fetched({ status: 'pending' }),
    fetched({ status: 'done', result }),
    ...PORTRAYAL_ERROR_CODES.map((code) => fetched({ status: 'error', code })),
    fetched({ status: 'error', code: 'portrayal_failed' }),
    { type: 'xstate.error.actor.fetchPortrayalResult', error: new Error('offline') },
    ...(snapshot.context.attempts < LAST_ATTEMPT
      ? [{ type: 'xstate.after.pollInterval.portrayalResult.polling.waiting' }]
      : []),
    // The timeout is the next thing to happen only while a request is out (no 2 s interval running); in
    // the harness it advances the clock by 16 s, past the moment the poll gives up.
    ...(snapshot.matches({ polling: 'fetching' })
      ? [{ type: 'xstate.after.pollTimeout.portrayalResult.polling' }]
      : []),
  ],
  // The number of requests is part of the state: the model walks the 2 s polls up to the 16 s timeout.
  serialize: (s) => ({ value: s.value, attempts: s.context.attempts }),
  provide: (control) =>
    portrayalResultMachine.provide({
      actors: { fetchPortrayalResult: control.actor('fetchPortrayalResult') },
    }),
  errorCodes: { expected: [...PORTRAYAL_ERROR_CODES, 'timeout', 'unknown'], read: failureOf },
};

describe('portrayal result machine (generated paths)', () => {
  it('polls every 2 s up to the 8th request before the 16 s timeout', () => {
    const paths = generatePaths(spec);
    const longest = Math.max(
      ...paths.map((steps) => steps.filter((step) => step.event.type.includes('pollInterval')).length),
    );
    expect(longest).toBe(LAST_ATTEMPT - 1);
  });

  it('covers every transition and every result error on a real actor with a simulated clock', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
