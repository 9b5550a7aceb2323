import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { arrivalLogic } from './visits';

/** Reception's lookup of a code against an API whose GET fails with that error. */
function lookUp(error: unknown) {
  const get = async () => {
    throw error;
  };
  const apiClient = async () => ({ get }) as unknown as ApiClient;
  return toPromise(createActor(arrivalLogic({ apiClient }), { input: { code: 'ACS-1' } }).start());
}

const answered = (status: number, problem: { code?: string; title?: string; detail?: string }) =>
  new ApiError({
    kind: 'http',
    method: 'GET',
    path: '/public/visits/arrival',
    status,
    problem: { status, title: problem.title ?? '', detail: problem.detail ?? '', ...problem },
  });

describe('arrivalLogic', () => {
  it('keeps the refusals reception has words for', async () => {
    expect(await lookUp(answered(404, { code: 'no_visit_today' }))).toEqual({
      kind: 'refused',
      code: 'no_visit_today',
    });
  });

  it("keeps another code with the server's own text, so the screen is never left with 'unknown' alone", async () => {
    expect(
      await lookUp(answered(409, { code: 'code_nobody_knows', title: 'Conflict', detail: 'A new rule' })),
    ).toEqual({
      kind: 'refused',
      code: 'unknown',
      problem: { code: 'code_nobody_knows', text: 'A new rule' },
    });
    expect(await lookUp(answered(404, { code: 'not_found', title: 'Not Found' }))).toEqual({
      kind: 'refused',
      code: 'unknown',
      problem: { code: 'not_found', text: 'Not Found' },
    });
  });

  it('says unknown for a failure without a code (the network, a broken answer)', async () => {
    expect(
      await lookUp(new ApiError({ kind: 'network', method: 'GET', path: '/public/visits/arrival' })),
    ).toEqual({ kind: 'refused', code: 'unknown' });
  });
});
