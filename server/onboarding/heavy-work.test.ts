import { describe, expect, it } from 'vitest';
import { busyResponse, createHeavyWork } from './heavy-work';

/** A job that runs until the test ends it, and says when it started. */
function held() {
  let end: (value: string) => void = () => {};
  let fail: (error: Error) => void = () => {};
  let started = false;
  const job = () => {
    started = true;
    return new Promise<string>((resolve, reject) => {
      end = resolve;
      fail = reject;
    });
  };
  return {
    job,
    started: () => started,
    end: (value: string) => end(value),
    fail: (error: Error) => fail(error),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('heavy work queue', () => {
  it('runs at most `slots` jobs at once, the others in arrival order as slots free up', async () => {
    const work = createHeavyWork({ slots: 2 });
    const jobs = [held(), held(), held(), held()];
    const results = Promise.allSettled(jobs.map((j) => work.run(j.job)));
    await tick();
    expect(jobs.map((j) => j.started())).toEqual([true, true, false, false]);
    expect(work.stats()).toMatchObject({ running: 2, queued: 2 });
    jobs[1]?.end('b');
    await tick();
    expect(jobs.map((j) => j.started())).toEqual([true, true, true, false]);
    jobs[0]?.fail(new Error('broken picture'));
    await tick();
    expect(jobs[3]?.started()).toBe(true);
    jobs[2]?.end('c');
    jobs[3]?.end('d');
    const settled = await results;
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(work.stats()).toEqual({ running: 0, queued: 0, admitted: 0 });
  });

  it('admits two requests of one person at once, and anyone else beside them', () => {
    const work = createHeavyWork({ slots: 2, perPerson: 2, waiting: 8 });
    const first = work.admit('ane');
    const second = work.admit('ane');
    expect(first.ok && second.ok).toBe(true);
    const third = work.admit('ane');
    expect(third).toMatchObject({ ok: false });
    expect(third.ok ? 0 : third.retryAfter).toBeGreaterThanOrEqual(1);
    expect(work.admit('jon').ok).toBe(true);
    if (first.ok) first.release();
    // Released twice counts once.
    if (first.ok) first.release();
    expect(work.admit('ane').ok).toBe(true);
    expect(work.admit('ane').ok).toBe(false);
    expect(work.stats().admitted).toBe(3);
  });

  it('admits at most slots + waiting requests in the whole process', () => {
    const work = createHeavyWork({ slots: 2, perPerson: 2, waiting: 3 });
    const places = Array.from({ length: 5 }, (_, i) => work.admit(`person-${i}`));
    expect(places.every((p) => p.ok)).toBe(true);
    expect(work.admit('person-late').ok).toBe(false);
    const [first] = places;
    if (first?.ok) first.release();
    expect(work.admit('person-late').ok).toBe(true);
  });

  it('answers a refusal 429 busy, with Retry-After in the header and the body', async () => {
    const res = busyResponse(3);
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('3');
    expect(await res.json()).toMatchObject({ status: 429, code: 'busy', retry_after: 3 });
  });
});
