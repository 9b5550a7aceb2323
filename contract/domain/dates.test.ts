import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, fromApiDate, fromDisplayDate, toApiDate } from './dates';

describe('dates', () => {
  it('formats as DD/MM/YYYY and HH:mm', () => {
    const d = new Date(2026, 10, 2, 9, 5);
    expect(formatDate(d)).toBe('02/11/2026');
    expect(formatDateTime(d)).toBe('02/11/2026 09:05');
    expect(toApiDate(d)).toBe('2026-11-02');
  });

  it('refuses impossible dates', () => {
    expect(fromApiDate('2026-02-30')).toBeUndefined();
    expect(fromDisplayDate('31/04/2026')).toBeUndefined();
    expect(fromApiDate('26-1-1')).toBeUndefined();
  });

  it('property: API and display forms round-trip', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(1900, 0, 1), max: new Date(2099, 11, 31), noInvalidDate: true }),
        (d) => {
          const api = toApiDate(d);
          const parsed = fromApiDate(api);
          expect(parsed && toApiDate(parsed)).toBe(api);
          expect(fromDisplayDate(formatDate(d)) && formatDate(d)).toBe(formatDate(d));
        },
      ),
    );
  });
});
