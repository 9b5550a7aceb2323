import { describe, expect, it } from 'vitest';
import { dateIn, isVisitDay } from '../../contract/domain/visits';
import { todaysVisitStart } from './seed';

const madrid = { timezone: 'Europe/Madrid' };

describe("the seeded visitor's visit of today", () => {
  it('starts three hours on, on a quarter hour, when that is still today in the facility', () => {
    const now = new Date('2026-11-27T09:05:00Z'); // 10:05 in Madrid
    const start = todaysVisitStart(now, madrid.timezone);
    expect(start.toISOString()).toBe('2026-11-27T12:15:00.000Z');
    expect(isVisitDay({ expected_at: start, location: madrid }, now)).toBe(true);
  });

  it('is still today, and still to come, when seeded in the evening (three hours on is tomorrow there)', () => {
    // 20:46 in Madrid: three hours on, on a quarter hour, is midnight, tomorrow's.
    const now = new Date('2026-11-27T19:46:00Z');
    const start = todaysVisitStart(now, madrid.timezone);
    expect(isVisitDay({ expected_at: start, location: madrid }, now)).toBe(true);
    expect(start.getTime()).toBeGreaterThan(now.getTime());
    expect(dateIn(start, madrid.timezone)).toBe('2026-11-27');
    // The Canaries, an hour behind: the same instant is 19:46 there, and three hours on (23:00) still today.
    expect(todaysVisitStart(now, 'Atlantic/Canary').toISOString()).toBe('2026-11-27T23:00:00.000Z');
  });
});
