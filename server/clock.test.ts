import { describe, expect, it } from 'vitest';
import { clockFromEnv, isMovable, movableClock, systemClock } from './clock';

describe('the clock of the visit rules', () => {
  it('starts at CLOCK_AT and keeps running at the system pace; set and reset move it', () => {
    let system = Date.parse('2030-01-01T12:00:00Z');
    const clock = movableClock(new Date('2030-06-01T21:30:00Z'), () => system);
    expect(clock.now().toISOString()).toBe('2030-06-01T21:30:00.000Z');
    system += 90_000;
    expect(clock.now().toISOString()).toBe('2030-06-01T21:31:30.000Z');
    clock.set(new Date('2030-06-01T22:30:00Z'));
    system += 1_000;
    expect(clock.now().toISOString()).toBe('2030-06-01T22:30:01.000Z');
    clock.reset();
    expect(clock.now().getTime()).toBe(system);
  });

  it('ignores CLOCK_AT in production and refuses one that is not a date elsewhere', () => {
    expect(clockFromEnv({ NODE_ENV: 'production', CLOCK_AT: '2030-06-01T21:30:00Z' })).toBe(systemClock);
    expect(isMovable(clockFromEnv({ NODE_ENV: 'production' }))).toBe(false);
    const dev = clockFromEnv({ CLOCK_AT: '2030-06-01T21:30:00Z' });
    expect(isMovable(dev)).toBe(true);
    expect(Math.abs(dev.now().getTime() - Date.parse('2030-06-01T21:30:00Z'))).toBeLessThan(5_000);
    expect(() => clockFromEnv({ CLOCK_AT: 'half past eleven' })).toThrow(/CLOCK_AT/);
  });
});
