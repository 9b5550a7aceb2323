import { isCleanText } from '../api/limits';

// Visit rules (spec §4 cancellation, §5 Visits, §9 presets and formats), pure so that NewVisit checks them as
// the person types and the reference server checks them again with the same code.

export type VisitField =
  | 'host'
  | 'date'
  | 'startAt'
  | 'endAt'
  | 'location'
  | 'title'
  | 'visitorName'
  | 'visitorEmail'
  | 'guests'
  | 'planRead';

/** What NewVisit holds while the person types (spec §3 Visit form fields). */
export interface NewVisitForm {
  host: string;
  /** YYYY-MM-DD, in the facility's timezone. */
  date: string;
  /** HH:mm, in the facility's timezone. */
  startAt: string;
  endAt: string;
  location: string;
  /** Reason or event (optional); it becomes the visit's title. */
  title: string;
  visitorName: string;
  visitorEmail: string;
  guests: string;
  planRead: boolean;
}

export const emptyNewVisitForm = (): NewVisitForm => ({
  host: '',
  date: '',
  startAt: '',
  endAt: '',
  location: '',
  title: '',
  visitorName: '',
  visitorEmail: '',
  guests: '0',
  planRead: false,
});

/** Spec §5 Visits, one code per rule; the portal shows common.errors.{code}. */
export type VisitRuleCode =
  | 'required'
  | 'wrong_format'
  | 'visit_date_past'
  | 'host_not_found'
  | 'host_is_visitor'
  | 'visit_start_invalid'
  | 'visit_start_past'
  | 'host_busy'
  | 'visit_location_invalid'
  | 'visit_title_invalid'
  | 'visit_end_before_arrival'
  | 'emergency_plan_not_read';

export type VisitFieldErrors = Partial<Record<VisitField, VisitRuleCode>>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Making an Intl.DateTimeFormat costs far more than using one (on a phone at 4x CPU, AuditAccesses' filter spent
// most of a click making the same few again for every date it drew): one per zone, kept.
const partsFormats = new Map<string, Intl.DateTimeFormat>();
const knownZones = new Map<string, boolean>();

function partsFormatIn(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partsFormats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock parts of an instant in a timezone. */
function partsIn(instant: Date, timeZone: string) {
  const parts = partsFormatIn(timeZone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

export function isTimeZone(timeZone: string): boolean {
  const known = knownZones.get(timeZone);
  if (known !== undefined) return known;
  let valid = true;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    valid = false;
  }
  knownZones.set(timeZone, valid);
  return valid;
}

/** YYYY-MM-DD of an instant in a timezone. */
export function dateIn(instant: Date, timeZone: string): string {
  const p = partsIn(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** HH:mm of an instant in a timezone. */
export function timeIn(instant: Date, timeZone: string): string {
  const p = partsIn(instant, timeZone);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** DD/MM/YYYY of an instant in a timezone (spec §9). */
export function displayDateIn(instant: Date, timeZone: string): string {
  const [year, month, day] = dateIn(instant, timeZone).split('-');
  return `${day}/${month}/${year}`;
}

/** DD/MM/YYYY HH:mm of an instant in a timezone (spec §9 date-hour). */
export const displayDateTimeIn = (instant: Date, timeZone: string) =>
  `${displayDateIn(instant, timeZone)} ${timeIn(instant, timeZone)}`;

/** A valid IANA zone, or UTC (a misconfigured zone never breaks a screen). */
export const zoneOrUtc = (timeZone: string | undefined): string =>
  timeZone && isTimeZone(timeZone) ? timeZone : 'UTC';

/** The calendar day `days` after the day of `instant` in the timezone, as YYYY-MM-DD. */
function dayAfterIn(instant: Date, timeZone: string, days: number): string {
  const [year, month, day] = dateIn(instant, timeZone).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/**
 * The instant the day of `now` (moved by `days` calendar days) starts in the timezone: a preset's "today" is the
 * tenant's today, not the browser's. DST days are 23 or 25 hours long; this counts calendar days, not 24 h.
 */
export function startOfDayIn(now: Date, timeZone: string, days = 0): Date {
  const zone = zoneOrUtc(timeZone);
  const date = dayAfterIn(now, zone, days);
  return zonedInstant(date, '00:00', zone) ?? new Date(`${date}T00:00:00Z`);
}

/** The day of the week of `now` in the timezone: 0 Sunday … 6 Saturday. */
export function weekdayIn(now: Date, timeZone: string): number {
  return new Date(`${dateIn(now, zoneOrUtc(timeZone))}T00:00:00Z`).getUTCDay();
}

let browserZone: string | undefined;
/**
 * The browser's own zone (to say the zone on screen only when it differs). Read once: a list asks for it on every
 * row and every render, and each ask made a new Intl.DateTimeFormat.
 */
export const browserTimeZone = (): string => {
  browserZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return browserZone;
};

/** The instant a wall-clock date and time name in a timezone; undefined when either is not valid. */
export function zonedInstant(date: string, time: string, timeZone: string): Date | undefined {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t || !isTimeZone(timeZone)) return undefined;
  const [year, month, day, hour, minute] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as number[];
  const wanted = Date.UTC(year as number, (month as number) - 1, day, hour, minute);
  const check = new Date(wanted);
  if (check.getUTCMonth() !== (month as number) - 1 || check.getUTCDate() !== day) return undefined;
  // The offset at the guess, then at the corrected instant (right across a DST change).
  let instant = wanted;
  for (let i = 0; i < 2; i++) {
    const p = partsIn(new Date(instant), timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    instant += wanted - shown;
  }
  return new Date(instant);
}

export interface VisitRuleContext {
  now: Date;
  /** The facilities the person may choose (already limited to the tenant's visits.locations). */
  facilities: readonly { facility_id: string; timezone: string }[];
  mustAcceptPlan: boolean;
}

/**
 * The rules of spec §5 that need nothing but the form: each wrong field with its one code. The host being
 * found and having no other visit then are the server's to say (host_not_found, host_busy). The visitor
 * cannot be their own host (host_is_visitor): the host's answer is what approves a request.
 */
export function visitFormErrors(form: NewVisitForm, rules: VisitRuleContext): VisitFieldErrors {
  const errors: VisitFieldErrors = {};
  const host = form.host.trim();
  if (!host) errors.host = 'required';
  else if (!EMAIL.test(host) || host.length > 254) errors.host = 'wrong_format';
  else if (host.toLowerCase() === form.visitorEmail.trim().toLowerCase()) errors.host = 'host_is_visitor';

  const facility = rules.facilities.find((f) => f.facility_id === form.location);
  if (!form.location) errors.location = 'required';
  else if (!facility || !isTimeZone(facility.timezone)) errors.location = 'visit_location_invalid';
  const timeZone = facility && isTimeZone(facility.timezone) ? facility.timezone : 'UTC';

  if (!form.date) errors.date = 'required';
  else if (!DATE.test(form.date) || !zonedInstant(form.date, '00:00', timeZone)) errors.date = 'wrong_format';
  else if (form.date < dateIn(rules.now, timeZone)) errors.date = 'visit_date_past';

  const start = zonedInstant(form.date, form.startAt, timeZone);
  if (!form.startAt) errors.startAt = 'required';
  else if (!start) {
    if (!errors.date) errors.startAt = 'visit_start_invalid';
  } else if (!errors.date && start.getTime() <= rules.now.getTime()) errors.startAt = 'visit_start_past';

  const end = zonedInstant(form.date, form.endAt, timeZone);
  if (!form.endAt) errors.endAt = 'required';
  else if (!TIME.test(form.endAt)) errors.endAt = 'wrong_format';
  else if (start && end && end.getTime() <= start.getTime()) errors.endAt = 'visit_end_before_arrival';

  if (form.title.length > 200 || !isCleanText(form.title)) errors.title = 'visit_title_invalid';

  const name = form.visitorName.trim();
  if (!name) errors.visitorName = 'required';
  else if (name.length > 100) errors.visitorName = 'wrong_format';
  const email = form.visitorEmail.trim();
  if (!email) errors.visitorEmail = 'required';
  else if (!EMAIL.test(email) || email.length > 254) errors.visitorEmail = 'wrong_format';

  if (!/^\d{1,2}$/.test(form.guests.trim() || '0')) errors.guests = 'wrong_format';
  if (rules.mustAcceptPlan && !form.planRead) errors.planRead = 'emergency_plan_not_read';
  return errors;
}

/** Spec §4: cancellation is refused once the visit has check-ins or has started. */
export function cancellationRefusal(
  visit: { status: string; expected_at: string | Date },
  now: Date,
): 'visit_already_has_checkins' | 'visit_already_started' | 'visit_already_cancelled' | null {
  if (visit.status === 'cancelled') return 'visit_already_cancelled';
  if (visit.status === 'checked_in' || visit.status === 'checked_out') return 'visit_already_has_checkins';
  if (new Date(visit.expected_at).getTime() <= now.getTime()) return 'visit_already_started';
  return null;
}

/** Check-in is for today's visits: the visit's day is today, both in the facility's timezone. */
export function isVisitDay(
  visit: { expected_at: string | Date; location: { timezone: string } },
  now: Date,
): boolean {
  const timeZone = visit.location.timezone;
  return dateIn(new Date(visit.expected_at), timeZone) === dateIn(now, timeZone);
}

/** A visit in progress (account deletion refuses meanwhile): checked in, or accepted and under way. */
export function isVisitInProgress(
  visit: { status: string; expected_at: string | Date; leaving_at: string | Date },
  now: Date,
): boolean {
  if (visit.status === 'checked_in') return true;
  const t = now.getTime();
  return (
    visit.status === 'accepted' &&
    new Date(visit.expected_at).getTime() <= t &&
    t < new Date(visit.leaving_at).getTime()
  );
}

/** Spec §9 visit date presets. */
export const VISIT_PRESETS = ['today', 'tomorrow', 'pendingThisWeek', 'allPending', 'last30Days'] as const;
export type VisitPreset = (typeof VISIT_PRESETS)[number];

export interface VisitRange {
  /** Instants, ISO; the server keeps visits whose arrival is within [fromDate, toDate). */
  fromDate?: string;
  toDate?: string;
  /** Pending presets keep only visits still to happen (requested or accepted). */
  pending: boolean;
}

/**
 * The range of a preset, in the tenant's days (its timezone, not the browser's); a week ends after Sunday (ISO
 * weeks, as in Spain). The pending presets start at the current minute, not the millisecond: a visit expected less
 * than a minute ago is still to happen, and the list's first page asked for as the page opens (src/actors/preload.ts)
 * is then the very request the screen makes a moment later.
 */
export function presetRange(preset: VisitPreset, now: Date, timeZone: string): VisitRange {
  const day = (days: number) => startOfDayIn(now, timeZone, days).toISOString();
  const thisMinute = new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();
  switch (preset) {
    case 'today':
      return { fromDate: day(0), toDate: day(1), pending: false };
    case 'tomorrow':
      return { fromDate: day(1), toDate: day(2), pending: false };
    case 'pendingThisWeek': {
      const daysToMonday = (8 - weekdayIn(now, timeZone)) % 7 || 7;
      return { fromDate: thisMinute, toDate: day(daysToMonday), pending: true };
    }
    case 'allPending':
      return { fromDate: thisMinute, pending: true };
    case 'last30Days':
      return { fromDate: day(-30), toDate: day(1), pending: false };
  }
}

/** The list's filter (the list machine holds one string): preset, visitor, host and ordering as a query. */
export interface VisitFilter {
  preset: VisitPreset;
  visitor: string;
  host: string;
  orderby: 'expected_at' | 'visitor' | 'host' | 'status';
  sorted: 'asc' | 'desc';
}

export const defaultVisitFilter = (): VisitFilter => ({
  preset: 'allPending',
  visitor: '',
  host: '',
  orderby: 'expected_at',
  sorted: 'asc',
});

export function encodeVisitFilter(filter: VisitFilter): string {
  return new URLSearchParams({
    preset: filter.preset,
    visitor: filter.visitor.trim(),
    host: filter.host.trim(),
    orderby: filter.orderby,
    sorted: filter.sorted,
  }).toString();
}

export function decodeVisitFilter(value: string): VisitFilter {
  const params = new URLSearchParams(value);
  const fallback = defaultVisitFilter();
  const preset = params.get('preset') as VisitPreset | null;
  const orderby = params.get('orderby') as VisitFilter['orderby'] | null;
  return {
    preset: preset && VISIT_PRESETS.includes(preset) ? preset : fallback.preset,
    visitor: params.get('visitor') ?? '',
    host: params.get('host') ?? '',
    orderby:
      orderby && ['expected_at', 'visitor', 'host', 'status'].includes(orderby) ? orderby : 'expected_at',
    sorted: params.get('sorted') === 'desc' ? 'desc' : 'asc',
  };
}

/** What the QR of a credential encodes (server/credentials/rules.ts credentialPayload). */
export function parseCredentialCode(
  code: string,
): { tenant: string; acsId: string; sid: string } | undefined {
  const match = /^acs:([a-z0-9-]+):([^:]+):([0-9a-f-]{36})$/i.exec(code.trim());
  if (!match) return undefined;
  try {
    return {
      tenant: match[1] as string,
      acsId: decodeURIComponent(match[2] as string),
      sid: match[3] as string,
    };
  } catch {
    return undefined;
  }
}
