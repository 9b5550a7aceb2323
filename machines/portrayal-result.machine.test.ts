import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { PortrayalResult } from '../contract/api/onboarding';
import { type PortrayalFetch, portrayalResultMachine } from './portrayal-result.machine';

const result = {
  document_info: { document_type: 'passport' },
  selfie_authenticity_valid: true,
} as PortrayalResult;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(answer: (attempt: number) => Promise<PortrayalFetch>) {
  const fetch = vi.fn(answer);
  const clock = new SimulatedClock();
  const actor = createActor(
    portrayalResultMachine.provide({
      actors: { fetchPortrayalResult: fromPromise(async () => fetch(fetch.mock.calls.length + 1)) },
    }),
    { input: { portrayalId: 'p-1' }, clock },
  );
  actor.start();
  return { actor, clock, fetch };
}

/** Lets the pending answer arrive, then moves the clock on. */
async function advance(clock: SimulatedClock, ms: number) {
  await settle();
  clock.increment(ms);
  await settle();
}

describe('portrayal result machine', () => {
  it('asks every 2 s while the result is 404 and gives up at exactly 16 s', async () => {
    const { actor, clock, fetch } = start(async () => ({ status: 'pending' }));
    for (let elapsed = 0; elapsed < 14000; elapsed += 2000) await advance(clock, 2000);
    expect(fetch).toHaveBeenCalledTimes(8);
    await advance(clock, 1999);
    expect(actor.getSnapshot().status).toBe('active');
    await advance(clock, 1);
    expect(actor.getSnapshot().value).toBe('timeout');
    expect(actor.getSnapshot().output).toEqual({ status: 'failed', failure: 'timeout' });
    expect(fetch).toHaveBeenCalledTimes(8);
  });

  it('gives up at 16 s even while a request is still out', async () => {
    const { actor, clock } = start(() => new Promise(() => {}));
    clock.increment(15999);
    expect(actor.getSnapshot().status).toBe('active');
    clock.increment(1);
    expect(actor.getSnapshot().output).toEqual({ status: 'failed', failure: 'timeout' });
  });

  it('keeps asking after a network failure and outputs the result once it is there', async () => {
    const { actor, clock, fetch } = start(async (attempt) => {
      if (attempt === 1) throw new TypeError('Failed to fetch');
      return attempt === 2 ? { status: 'pending' } : { status: 'done', result };
    });
    await advance(clock, 2000);
    await advance(clock, 2000);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(actor.getSnapshot().output).toEqual({ status: 'done', result });
  });

  it('ends on the error the server names', async () => {
    const { actor } = start(async () => ({ status: 'error', code: 'document_classification_error' }));
    await settle();
    expect(actor.getSnapshot().value).toBe('documentClassification');
    expect(actor.getSnapshot().output).toEqual({
      status: 'failed',
      failure: 'document_classification_error',
    });
  });
});
