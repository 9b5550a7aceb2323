import { afterEach, describe, expect, it } from 'vitest';
import { apiFilterOf, auditFilterAt, decodeAuditFilter, encodeAuditFilter } from './audit';

// 23 November 2026, 23:30 in Madrid (22:30 UTC): already the 24th in Auckland, still the 23rd in the Canaries.
const now = new Date('2026-11-23T22:30:00Z');
const browserZone = process.env.TZ;

afterEach(() => {
  // Node re-reads TZ when it changes: the tests below stand in for a browser in another zone.
  if (browserZone === undefined) delete process.env.TZ;
  else process.env.TZ = browserZone;
});

describe('audit filter', () => {
  it("starts each preset at the tenant's midnight and ends just after now", () => {
    const today = auditFilterAt('today', now, 'Europe/Madrid');
    expect(today.from).toBe('2026-11-22T23:00:00.000Z'); // 00:00 on the 23rd in Madrid
    expect(today.to).toBe(new Date(now.getTime() + 1).toISOString());
    expect(auditFilterAt('last7Days', now, 'Europe/Madrid').from).toBe('2026-11-16T23:00:00.000Z');
    expect(auditFilterAt('last30Days', now, 'Europe/Madrid').from).toBe('2026-10-24T22:00:00.000Z'); // CEST then
    expect(auditFilterAt('all', now, 'Europe/Madrid').from).toBeUndefined();
    expect(auditFilterAt('today', now, 'Atlantic/Canary').from).toBe('2026-11-23T00:00:00.000Z');
  });

  it("counts the tenant's days whatever the browser's timezone", () => {
    const inMadrid = auditFilterAt('today', now, 'Europe/Madrid');
    process.env.TZ = 'Pacific/Auckland'; // where it is already the 24th
    expect(new Date(now).getDate()).toBe(24);
    expect(auditFilterAt('today', now, 'Europe/Madrid')).toEqual(inMadrid);
    process.env.TZ = 'America/Los_Angeles';
    expect(auditFilterAt('today', now, 'Europe/Madrid')).toEqual(inMadrid);
  });

  it('round-trips through the list machine and sends the API the same instants', () => {
    const filter = auditFilterAt('last7Days', now, 'Europe/Madrid', { facility_id: 'f-1', result: 'denied' });
    const decoded = decodeAuditFilter(encodeAuditFilter(filter), new Date(), 'Europe/Madrid');
    expect(decoded).toEqual(filter);
    expect(apiFilterOf(decoded)).toEqual({
      from: filter.from,
      to: filter.to,
      facility_id: 'f-1',
      result: 'denied',
    });
  });

  it('reads an empty or broken filter as the last 30 days; a bad zone counts UTC days', () => {
    expect(decodeAuditFilter('', now, 'Europe/Madrid')).toEqual(
      auditFilterAt('last30Days', now, 'Europe/Madrid'),
    );
    expect(decodeAuditFilter('{"preset":"nope"}', now, 'Europe/Madrid').preset).toBe('last30Days');
    expect(auditFilterAt('today', now, 'Mars/Olympus').from).toBe('2026-11-23T00:00:00.000Z');
  });
});
