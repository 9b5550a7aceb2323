import { describe, expect, it } from 'vitest';
import { apiFilterOf, auditFilterAt, decodeAuditFilter, encodeAuditFilter } from './audit';

const now = new Date(2026, 10, 23, 18, 30, 0); // local time

describe('audit filter', () => {
  it('starts each preset at a local midnight and ends just after now', () => {
    const today = auditFilterAt('today', now);
    expect(new Date(today.from ?? '').getHours()).toBe(0);
    expect(new Date(today.from ?? '').getDate()).toBe(23);
    expect(today.to).toBe(new Date(now.getTime() + 1).toISOString());
    expect(new Date(auditFilterAt('last7Days', now).from ?? '').getDate()).toBe(17);
    expect(new Date(auditFilterAt('last30Days', now).from ?? '').getDate()).toBe(25);
    expect(auditFilterAt('all', now).from).toBeUndefined();
  });

  it('round-trips through the list machine and sends the API the same instants', () => {
    const filter = auditFilterAt('last7Days', now, { facility_id: 'f-1', result: 'denied' });
    const decoded = decodeAuditFilter(encodeAuditFilter(filter), new Date());
    expect(decoded).toEqual(filter);
    expect(apiFilterOf(decoded)).toEqual({
      from: filter.from,
      to: filter.to,
      facility_id: 'f-1',
      result: 'denied',
    });
  });

  it('reads an empty or broken filter as the last 30 days', () => {
    expect(decodeAuditFilter('', now)).toEqual(auditFilterAt('last30Days', now));
    expect(decodeAuditFilter('{"preset":"nope"}', now).preset).toBe('last30Days');
  });
});
