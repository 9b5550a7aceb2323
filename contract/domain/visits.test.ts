import { describe, expect, it } from 'vitest';
import {
  cancellationRefusal,
  dateIn,
  decodeVisitFilter,
  defaultVisitFilter,
  displayDateTimeIn,
  emptyNewVisitForm,
  encodeVisitFilter,
  isVisitDay,
  isVisitInProgress,
  type NewVisitForm,
  parseCredentialCode,
  presetRange,
  visitFormErrors,
  zonedInstant,
} from './visits';

describe('zoned times (stored in UTC, shown in the facility timezone)', () => {
  it('turns a wall-clock date and time of a timezone into its instant, across daylight saving time', () => {
    expect(zonedInstant('2026-01-15', '10:00', 'Europe/Madrid')?.toISOString()).toBe(
      '2026-01-15T09:00:00.000Z',
    );
    expect(zonedInstant('2026-07-15', '10:00', 'Europe/Madrid')?.toISOString()).toBe(
      '2026-07-15T08:00:00.000Z',
    );
    expect(zonedInstant('2026-07-15', '10:00', 'Atlantic/Canary')?.toISOString()).toBe(
      '2026-07-15T09:00:00.000Z',
    );
    expect(zonedInstant('2026-02-30', '10:00', 'Europe/Madrid')).toBeUndefined();
    expect(zonedInstant('2026-01-15', '25:00', 'Europe/Madrid')).toBeUndefined();
    expect(zonedInstant('2026-01-15', '10:00', 'Mars/Olympus')).toBeUndefined();
  });

  it('shows an instant as DD/MM/YYYY HH:mm in the facility timezone', () => {
    const instant = new Date('2026-12-31T23:30:00Z');
    expect(displayDateTimeIn(instant, 'Europe/Madrid')).toBe('01/01/2027 00:30');
    expect(displayDateTimeIn(instant, 'Atlantic/Canary')).toBe('31/12/2026 23:30');
    expect(dateIn(instant, 'Europe/Madrid')).toBe('2027-01-01');
  });
});

describe('visitFormErrors (spec §5 Visits)', () => {
  const now = new Date('2026-03-10T09:00:00Z'); // 10:00 in Madrid
  const rules = {
    now,
    facilities: [{ facility_id: 'bilbao', timezone: 'Europe/Madrid' }],
    mustAcceptPlan: true,
  };
  const valid: NewVisitForm = {
    ...emptyNewVisitForm(),
    host: 'host@gambling.example',
    date: '2026-03-11',
    startAt: '10:00',
    endAt: '11:00',
    location: 'bilbao',
    visitorName: 'Vera',
    visitorEmail: 'vera@example.org',
    planRead: true,
  };

  it('finds nothing wrong with a valid form', () => {
    expect(visitFormErrors(valid, rules)).toEqual({});
  });

  it('gives each rule its own code on its own field', () => {
    expect(visitFormErrors({ ...valid, date: '2026-03-09' }, rules)).toEqual({ date: 'visit_date_past' });
    expect(
      visitFormErrors({ ...valid, date: '2026-03-10', startAt: '09:30', endAt: '11:00' }, rules),
    ).toEqual({
      startAt: 'visit_start_past',
    });
    expect(visitFormErrors({ ...valid, endAt: '10:00' }, rules)).toEqual({
      endAt: 'visit_end_before_arrival',
    });
    expect(visitFormErrors({ ...valid, location: 'elsewhere' }, rules)).toEqual({
      location: 'visit_location_invalid',
    });
    expect(visitFormErrors({ ...valid, title: 'x'.repeat(201) }, rules)).toEqual({
      title: 'visit_title_invalid',
    });
    expect(visitFormErrors({ ...valid, planRead: false }, rules)).toEqual({
      planRead: 'emergency_plan_not_read',
    });
    expect(visitFormErrors({ ...valid, planRead: false }, { ...rules, mustAcceptPlan: false })).toEqual({});
    expect(visitFormErrors({ ...valid, host: 'not an email' }, rules)).toEqual({ host: 'wrong_format' });
    expect(visitFormErrors({ ...valid, host: ' Vera@Example.org ' }, rules)).toEqual({
      host: 'host_is_visitor',
    });
    expect(visitFormErrors(emptyNewVisitForm(), rules)).toMatchObject({
      host: 'required',
      date: 'required',
      startAt: 'required',
      endAt: 'required',
      location: 'required',
      visitorName: 'required',
      visitorEmail: 'required',
    });
  });

  it('judges "today" in the facility timezone, not the browser’s', () => {
    // 23:30 UTC on the 10th is already the 11th in Madrid: the 10th is past there.
    const late = { ...rules, now: new Date('2026-03-10T23:30:00Z') };
    expect(visitFormErrors({ ...valid, date: '2026-03-10' }, late).date).toBe('visit_date_past');
  });
});

describe('the cancellation rule and a visit in progress (spec §4)', () => {
  const now = new Date('2026-03-10T10:00:00Z');
  it('refuses once the visit has check-ins or has started', () => {
    expect(cancellationRefusal({ status: 'accepted', expected_at: '2026-03-10T11:00:00Z' }, now)).toBeNull();
    expect(cancellationRefusal({ status: 'requested', expected_at: '2026-03-10T10:00:00Z' }, now)).toBe(
      'visit_already_started',
    );
    expect(cancellationRefusal({ status: 'checked_in', expected_at: '2026-03-10T11:00:00Z' }, now)).toBe(
      'visit_already_has_checkins',
    );
    expect(cancellationRefusal({ status: 'checked_out', expected_at: '2026-03-10T08:00:00Z' }, now)).toBe(
      'visit_already_has_checkins',
    );
    expect(cancellationRefusal({ status: 'cancelled', expected_at: '2026-03-10T11:00:00Z' }, now)).toBe(
      'visit_already_cancelled',
    );
  });

  it('is in progress when checked in, or accepted between arrival and leaving', () => {
    const visit = { expected_at: '2026-03-10T09:00:00Z', leaving_at: '2026-03-10T11:00:00Z' };
    expect(isVisitInProgress({ ...visit, status: 'checked_in' }, now)).toBe(true);
    expect(isVisitInProgress({ ...visit, status: 'accepted' }, now)).toBe(true);
    expect(isVisitInProgress({ ...visit, status: 'requested' }, now)).toBe(false);
    expect(isVisitInProgress({ ...visit, status: 'accepted' }, new Date('2026-03-10T11:00:00Z'))).toBe(false);
  });
});

describe('isVisitDay (check-in is for today, in the facility timezone)', () => {
  const visit = (expected_at: string, timezone: string) => ({ expected_at, location: { timezone } });
  it('compares days in the facility timezone, not in UTC nor the browser', () => {
    // 00:30 on 2 June in Madrid is 22:30 UTC on 1 June.
    const madrid = visit('2030-06-01T22:30:00Z', 'Europe/Madrid');
    expect(isVisitDay(madrid, new Date('2030-06-01T21:59:00Z'))).toBe(false); // 23:59 on 1 June in Madrid
    expect(isVisitDay(madrid, new Date('2030-06-01T22:00:00Z'))).toBe(true); // 00:00 on 2 June
    expect(isVisitDay(madrid, new Date('2030-06-02T21:59:00Z'))).toBe(true); // 23:59 on 2 June
    expect(isVisitDay(madrid, new Date('2030-06-02T22:00:00Z'))).toBe(false); // 00:00 on 3 June
    const mexico = visit('2030-06-02T03:00:00Z', 'America/Mexico_City'); // 21:00 on 1 June there
    expect(isVisitDay(mexico, new Date('2030-06-01T18:00:00Z'))).toBe(true);
    expect(isVisitDay(mexico, new Date('2030-06-02T07:00:00Z'))).toBe(false);
  });
});

describe('list presets and filter (spec §9)', () => {
  const now = new Date('2026-03-11T14:00:00Z'); // Wednesday 11 March 2026, 15:00 in Madrid
  it("today, tomorrow and last 30 days are whole days of the tenant's zone; pending ones start now", () => {
    expect(presetRange('today', now, 'Europe/Madrid')).toEqual({
      fromDate: '2026-03-10T23:00:00.000Z',
      toDate: '2026-03-11T23:00:00.000Z',
      pending: false,
    });
    expect(presetRange('tomorrow', now, 'Europe/Madrid').fromDate).toBe('2026-03-11T23:00:00.000Z');
    expect(presetRange('pendingThisWeek', now, 'Europe/Madrid')).toEqual({
      fromDate: now.toISOString(),
      toDate: '2026-03-15T23:00:00.000Z', // Monday 16 March, 00:00 in Madrid
      pending: true,
    });
    expect(presetRange('allPending', now, 'Europe/Madrid')).toEqual({
      fromDate: now.toISOString(),
      pending: true,
    });
    expect(presetRange('last30Days', now, 'Europe/Madrid').fromDate).toBe('2026-02-08T23:00:00.000Z');
  });

  it('pending ones start at the current minute, so two askings within it are the same request', () => {
    const later = new Date('2026-03-11T14:00:59.999Z');
    expect(presetRange('allPending', later, 'Europe/Madrid')).toEqual(
      presetRange('allPending', now, 'Europe/Madrid'),
    );
    expect(presetRange('pendingThisWeek', later, 'Europe/Madrid').fromDate).toBe('2026-03-11T14:00:00.000Z');
    expect(presetRange('allPending', new Date('2026-03-11T14:01:00Z'), 'Europe/Madrid').fromDate).toBe(
      '2026-03-11T14:01:00.000Z',
    );
  });

  it("does not follow the browser's zone, and crosses a DST change by calendar days", () => {
    const browserZone = process.env.TZ;
    try {
      process.env.TZ = 'America/Mexico_City'; // 08:00 there, same day; its midnight is not Madrid's
      expect(presetRange('today', now, 'Europe/Madrid').fromDate).toBe('2026-03-10T23:00:00.000Z');
      // Madrid moves to summer time on 29 March: the next day starts at 22:00 UTC.
      const beforeDst = new Date('2026-03-28T12:00:00Z');
      expect(presetRange('tomorrow', beforeDst, 'Europe/Madrid')).toMatchObject({
        fromDate: '2026-03-28T23:00:00.000Z',
        toDate: '2026-03-29T22:00:00.000Z',
      });
      // Late on Sunday in Mexico City is already Monday in Madrid: Madrid's week has ended.
      const sunday = new Date('2026-03-15T23:30:00Z');
      expect(presetRange('pendingThisWeek', sunday, 'Europe/Madrid').toDate).toBe('2026-03-22T23:00:00.000Z');
    } finally {
      if (browserZone === undefined) delete process.env.TZ;
      else process.env.TZ = browserZone;
    }
  });

  it('round-trips the filter through the list machine’s one string', () => {
    const filter = {
      ...defaultVisitFilter(),
      preset: 'today' as const,
      host: 'ana@x',
      sorted: 'desc' as const,
    };
    expect(decodeVisitFilter(encodeVisitFilter(filter))).toEqual(filter);
    expect(decodeVisitFilter('preset=nonsense&orderby=secret')).toEqual(defaultVisitFilter());
  });
});

describe('parseCredentialCode', () => {
  it('reads acs:<tenant>:<acs_id>:<sid> and nothing else', () => {
    const sid = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(parseCredentialCode(`acs:gambling:ACS-GAMBLING-0002:${sid}`)).toEqual({
      tenant: 'gambling',
      acsId: 'ACS-GAMBLING-0002',
      sid,
    });
    expect(parseCredentialCode('ACS-GAMBLING-0002')).toBeUndefined();
    expect(parseCredentialCode(`acs:gambling::${sid}`)).toBeUndefined();
  });
});
