import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckRequest, CheckResponse } from './answer-check.worker';

/** A Worker stand-in that runs the real worker module's handler, or never answers and then fails. */
function fakeWorker(behaviour: 'answers' | 'fails') {
  const made: FakeWorker[] = [];
  class FakeWorker {
    onmessage: ((event: MessageEvent<CheckResponse>) => void) | null = null;
    onerror: ((event: Event) => void) | null = null;
    posted: CheckRequest[] = [];
    terminated = false;
    constructor() {
      made.push(this);
    }
    postMessage(request: CheckRequest) {
      this.posted.push(request);
      if (behaviour === 'fails') {
        queueMicrotask(() => this.onerror?.(new Event('error')));
        return;
      }
      void import('./schemas').then(({ checkAnswer }) =>
        this.onmessage?.({
          data: { id: request.id, ...checkAnswer(request.name, request.value) },
        } as MessageEvent),
      );
    }
    terminate() {
      this.terminated = true;
    }
  }
  return { FakeWorker, made };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('the API answers checked against the contract', () => {
  it('without a worker, checks on the page: a matching answer is kept, another refused with the field named', async () => {
    vi.stubGlobal('Worker', undefined);
    const { checkAnswer, readAnswer } = await import('./answers');
    const ok = await checkAnswer('redeemedUserCode', {
      onboarding_id: 'o-1',
      expires_at: '2026-11-27T12:00:00Z',
    });
    expect(ok).toEqual({ ok: true, value: { onboarding_id: 'o-1', expires_at: '2026-11-27T12:00:00Z' } });
    const refused = await checkAnswer('redeemedUserCode', { onboarding_id: 7 });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.issues.map((issue) => issue.message).join(' ')).toMatch(/onboarding_id/);
    expect(await readAnswer('redeemedUserCode', 'not an object')).toBeUndefined();
  });

  it('with a worker, the page sends it the answer and takes its verdict', async () => {
    const { FakeWorker, made } = fakeWorker('answers');
    vi.stubGlobal('Worker', FakeWorker);
    const { checkAnswer, userCode } = await import('./answers');
    const result = await userCode['~standard'].validate({ code: 'ABCD1234' });
    expect(result.issues?.length).toBeGreaterThan(0);
    expect(await checkAnswer('createdPortrayal', { portrayal_id: 'p-1', life_proofing: false })).toEqual({
      ok: true,
      value: { portrayal_id: 'p-1', life_proofing: false },
    });
    // One worker, started with the module, asked both times.
    expect(made).toHaveLength(1);
    expect(made[0]?.posted.map((request) => request.name)).toEqual(['userCode', 'createdPortrayal']);
  });

  it('a worker that fails leaves no answer waiting: it is checked on the page, and so is every later one', async () => {
    const { FakeWorker, made } = fakeWorker('fails');
    vi.stubGlobal('Worker', FakeWorker);
    const { checkAnswer } = await import('./answers');
    expect(await checkAnswer('createdPortrayal', { portrayal_id: 'p-1', life_proofing: true })).toEqual({
      ok: true,
      value: { portrayal_id: 'p-1', life_proofing: true },
    });
    expect(made[0]?.terminated).toBe(true);
    expect((await checkAnswer('createdPortrayal', { portrayal_id: 1 })).ok).toBe(false);
    expect(made).toHaveLength(1);
    expect(made[0]?.posted).toHaveLength(1);
  });
});
