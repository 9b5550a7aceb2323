// Guesses sent in parallel at one account are checked one after another, each after its delay.
import { describe, expect, it } from 'vitest';
import { createThrottle } from '../auth/throttle';

/** A throttle whose sleeps are recorded and whose checks report how many ran at once. */
function observed(options: Parameters<typeof createThrottle>[0] = {}) {
  let running = 0;
  let mostAtOnce = 0;
  const timeline: string[] = [];
  const throttle = createThrottle({
    ...options,
    sleep: async (ms) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      timeline.push(`sleep ${ms}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running -= 1;
    },
  });
  const guess = (keys: string[], right = false) =>
    throttle.attempt(keys, async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      timeline.push(`check ${keys[0]}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running -= 1;
      return right;
    });
  return { throttle, guess, timeline, mostAtOnce: () => mostAtOnce };
}

describe('login throttle under parallel guesses', () => {
  it('twenty parallel guesses after eight failures cost twenty full delays, one at a time', async () => {
    const { throttle, guess, timeline, mostAtOnce } = observed();
    const keys = ['t|account|ana', 't|address|10.0.0.9'];
    for (let i = 0; i < 8; i++) await guess(keys);
    timeline.length = 0;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(keys, i === 19)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(mostAtOnce()).toBe(1);
    const sleeps = timeline
      .filter((step) => step.startsWith('sleep'))
      .map((step) => Number(step.split(' ')[1]));
    expect(sleeps).toHaveLength(20);
    expect(sleeps.every((ms) => ms === 8000)).toBe(true);
    // Sleep and check alternate: no guess is checked while another waits.
    expect(timeline.slice(0, 4)).toEqual([
      'sleep 8000',
      'check t|account|ana',
      'sleep 8000',
      'check t|account|ana',
    ]);
    expect(throttle.pendingKeys()).toBe(0);
  });

  it('guesses from one address at many accounts queue on the address too', async () => {
    const { guess, mostAtOnce } = observed();
    for (let i = 0; i < 4; i++) await guess([`t|account|u${i}`, 't|address|10.0.0.7']);
    await Promise.all(Array.from({ length: 6 }, (_, i) => guess([`t|account|v${i}`, 't|address|10.0.0.7'])));
    expect(mostAtOnce()).toBe(1);
  });

  it('another person at another account is not held up by the queue', async () => {
    const { throttle, guess } = observed({ freeFailures: 0, baseDelayMs: 1, maxDelayMs: 1 });
    const order: string[] = [];
    const queued = Array.from({ length: 5 }, () =>
      guess(['t|account|ana', 't|address|10.0.0.9']).then(() => order.push('ana')),
    );
    const other = guess(['t|account|bea', 't|address|10.0.0.8']).then(() => order.push('bea'));
    await Promise.all([...queued, other]);
    expect(order.indexOf('bea')).toBeLessThan(order.lastIndexOf('ana'));
    expect(throttle.pendingKeys()).toBe(0);
  });
});
