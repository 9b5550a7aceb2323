// Visits (spec §3 Visit, §4 statuses/history/actions, §5 Visits rules, §7 Visits, §8 refusals):
//   GET  /public/visits                       post_visits_me (own) | post_visits_all (all of the tenant)
//   GET  /public/visits/arrival?code=         post_visits_all: today's visit of the person whose QR reception read
//   GET  /public/visits/visitors/{userId}     post_visits_all: name and email of a person of the tenant (NewVisit)
//   GET  /public/visits/{id}                  post_visits_me (own) | post_visits_all
//   GET  /public/visits/{id}/qr               post_visits_me (own) | post_visits_all: the visitor's QR (PNG)
//   POST /public/visits                       post_visits_me (as the visitor) | post_visits_all
//   POST /public/visits/{id}/cancellation     post_visits_me (own) | post_visits_all
//   PUT  /public/visits/{id}/checkin|checkout post_visits_all
//   POST /public/visits/{id}/confirmation     public: the host's mailed token as bearer
//   GET|PUT /dev/clock                        development only (loopback, admin): the clock of the visit rules
// A visitor never sees another person's visit, nor another tenant's: 404.
import { type } from 'arktype';
import { type Context, Hono } from 'hono';
import type { AccessTokenClaims } from '../../contract/api/access-token';
import {
  type NewVisitRequest,
  newVisitRequest,
  type Visit,
  type VisitArrival,
  type VisitConfirmationResult,
  type VisitPage,
  type VisitVisitor,
  visitCheckBody,
  visitConfirmationBody,
} from '../../contract/api/visits';
import {
  cancellationRefusal,
  dateIn,
  displayDateIn,
  displayDateTimeIn,
  isVisitDay,
  parseCredentialCode,
  type VisitField,
  type VisitRuleCode,
} from '../../contract/domain/visits';
import type { ApiAuth, AuthEnv } from '../auth/verify';
import { type Clock, clockFromEnv, isMovable } from '../clock';
import type { AppDeps } from '../context';
import { credentialPayload, isValidCredential } from '../credentials/rules';
import type { Db } from '../db/db';
import { HttpProblem } from '../http/problem';
import { intParam } from '../http/query';
import { isUuid, readBody, validationProblem } from '../http/validation';
import { portalOriginOf } from '../origins';
import { qrPng } from '../qr';
import { noteStaffAction, recordsStaffAction, recordsWithin } from '../staff-actions/routes';
import { mailHost } from './mail';
import type { VisitsOptions } from './options';
import {
  ARRIVAL_RANK,
  actorOf,
  answeredRefusal,
  checkInRefusal,
  isReception,
  RECEPTION,
  REFUSALS,
  sameEmail,
  VISITOR,
} from './rules';
import { type VisitSettings, visitSettingsLoader } from './settings';
import {
  type AccountRow,
  accountByEmail,
  accountById,
  accountQrCredentials,
  appendHistory,
  facilityById,
  findVisit,
  hostBusy,
  insertVisit,
  listVisits,
  moveVisit,
  personName,
  publicVisit,
  qrCredentialsOf,
  type StoredVisit,
  userByAcsId,
  visitorById,
} from './store';
import { makeVisitToken, readVisitToken, visitTokenTtlMs } from './token';

const MAX_PAGE_SIZE = 100;

const notFound = () => new HttpProblem(404, 'No visit with that id.', 'not_found');

function dateParam(value: string | undefined, name: string): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  // Years outside 1900–9999 (year 0, expanded years like -000001) are not dates a visit list is asked for, and
  // PostgreSQL refuses some of them.
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || value.length > 40 || year < 1900 || year > 9999) {
    throw new HttpProblem(
      400,
      `${name} must be a date (YYYY-MM-DD) or an ISO date and time.`,
      'invalid_query',
    );
  }
  return date;
}

/** What every group of the visit routes shares. */
interface VisitsContext {
  deps: AppDeps;
  db: Db;
  auth: ApiAuth;
  clock: Clock;
  now: () => Date;
  tokenTtlMs: number;
  origins: VisitsOptions['origins'];
  settingsOf: (tenant: string) => Promise<VisitSettings>;
  /** A visitor (their own visits) or reception (every visit of the tenant). */
  either: ReturnType<ApiAuth['requireAuth']>;
  /** The visit the caller may act on: any of the tenant for reception, their own for a visitor; else 404. */
  visibleVisit: (c: Context<AuthEnv>) => Promise<StoredVisit>;
}

export function visitsRoutes(deps: AppDeps, auth: ApiAuth, options: VisitsOptions = {}): Hono<AuthEnv> {
  const { db } = deps;
  const clock = options.clock ?? (options.now ? { now: options.now } : clockFromEnv());
  const v: VisitsContext = {
    deps,
    db,
    auth,
    clock,
    now: () => clock.now(),
    tokenTtlMs: options.tokenTtlMs ?? visitTokenTtlMs(),
    origins: options.origins ?? deps.origins,
    settingsOf: visitSettingsLoader(deps.config.publicDir),
    either: auth.requireAuth(VISITOR, RECEPTION),
    visibleVisit: async (c) => {
      const id = c.req.param('id') ?? '';
      if (!isUuid(id)) throw notFound();
      const claims = c.get('auth');
      const visit = await findVisit(db, c.get('tenant'), id, isReception(claims) ? undefined : claims.sub);
      if (!visit) throw notFound();
      return visit;
    },
  };
  const app = new Hono<AuthEnv>();
  // Before listRoutes: /public/visits/arrival must be matched before /public/visits/:id takes 'arrival' for an id.
  arrivalRoutes(app, v);
  listRoutes(app, v);
  app.post('/public/visits', v.either, async (c) => {
    const visitId = await requestVisit(c, v);
    const created = await findVisit(db, c.get('tenant'), visitId);
    return c.json<Visit>(publicVisit(created as StoredVisit), 201);
  });
  statusRoutes(app, v);
  confirmationRoute(app, v);
  devClockRoutes(app, v);
  return app;
}

function listRoutes(app: Hono<AuthEnv>, { db, now, either, visibleVisit }: VisitsContext) {
  app.get('/public/visits', either, async (c) => {
    const claims = c.get('auth');
    const orderby = c.req.query('orderby') ?? 'expected_at';
    if (!['expected_at', 'visitor', 'host', 'status'].includes(orderby)) {
      throw new HttpProblem(400, 'orderby must be expected_at, visitor, host or status.', 'invalid_query');
    }
    const page = await listVisits(db, c.get('tenant'), {
      pageSize: intParam(c.req.query('pageSize'), 'pageSize', 10, 1, MAX_PAGE_SIZE),
      pageIndex: intParam(c.req.query('pageIndex'), 'pageIndex', 0, 0, 100_000),
      from: dateParam(c.req.query('fromDate'), 'fromDate'),
      to: dateParam(c.req.query('toDate'), 'toDate'),
      pending: c.req.query('status') === 'pending',
      now: now(),
      visitor: c.req.query('visitor')?.trim().slice(0, 200) || undefined,
      host: c.req.query('user')?.trim().slice(0, 200) || undefined,
      orderby: orderby as 'expected_at',
      sorted: c.req.query('sorted') === 'desc' ? 'desc' : 'asc',
      ...(isReception(claims) ? {} : { visitorAccountId: claims.sub }),
    });
    return c.json<VisitPage>({
      items: page.items.map(publicVisit),
      totalItems: page.totalItems,
      bookmark: null,
    });
  });

  app.get('/public/visits/:id', either, async (c) => c.json<Visit>(publicVisit(await visibleVisit(c))));

  // The visitor's QR to print with the visit (VisitDetail print-QR): their newest valid QR credential.
  app.get('/public/visits/:id/qr', either, async (c) => {
    const visit = await visibleVisit(c);
    const tenant = c.get('tenant');
    const rows = await accountQrCredentials(db, tenant, visit.visitor ?? '');
    const valid = rows.find((row) => isValidCredential(row, now()));
    if (!valid) throw new HttpProblem(404, 'The visitor holds no valid QR credential.', 'not_found');
    const png = await qrPng(credentialPayload(tenant, valid.acs_id, valid.sid));
    c.header('Cache-Control', 'no-store');
    return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png' });
  });
}

function arrivalRoutes(app: Hono<AuthEnv>, { db, auth, now }: VisitsContext) {
  // Reception (ProcessVisit): the code a QR carries (acs:<tenant>:<acs_id>:<sid>) or the ACS id typed.
  app.get('/public/visits/arrival', auth.requireAuth(RECEPTION), async (c) => {
    const tenant = c.get('tenant');
    const code = (c.req.query('code') ?? '').trim().slice(0, 300);
    if (!code) throw new HttpProblem(400, 'Give the code of the QR or the access id.', 'invalid_query');
    const parsed = parseCredentialCode(code);
    if (parsed && parsed.tenant !== tenant) {
      throw new HttpProblem(409, 'This QR belongs to another portal.', 'credential_not_valid');
    }
    const acsId = parsed ? parsed.acsId : code;
    const user = await userByAcsId(db, tenant, acsId);
    if (!user) throw new HttpProblem(404, 'Nobody holds this code.', 'no_visit_today');
    const credentials = await qrCredentialsOf(db, tenant, user.user_id, parsed ? parsed.sid : undefined);
    if (!credentials.some((row) => isValidCredential(row, now()))) {
      throw new HttpProblem(409, 'This QR has been revoked or has expired.', 'credential_not_valid');
    }
    if (!user.account_id) throw new HttpProblem(404, 'This person has no visit today.', 'no_visit_today');
    // Today's visits of the person, today in each facility's timezone; one under way first.
    const { items } = await listVisits(db, tenant, {
      pageSize: 50,
      pageIndex: 0,
      from: new Date(now().getTime() - 36 * 3600_000),
      to: new Date(now().getTime() + 36 * 3600_000),
      pending: false,
      now: now(),
      orderby: 'expected_at',
      sorted: 'asc',
      visitorAccountId: user.account_id,
    });
    const today = items
      .filter((visit) => visit.status !== 'cancelled')
      .filter((visit) => isVisitDay(visit, now()))
      .sort((a, b) => ARRIVAL_RANK[a.status] - ARRIVAL_RANK[b.status]);
    const visit = today[0];
    if (!visit) throw new HttpProblem(404, 'This person has no visit today.', 'no_visit_today');
    return c.json<VisitArrival>({ visit: publicVisit(visit), person: { name: user.name, acs_id: acsId } });
  });

  // Reception opening NewVisit for a person (new-visit/{userId}): the user record's or the account's id.
  app.get('/public/visits/visitors/:userId', auth.requireAuth(RECEPTION), async (c) => {
    const id = c.req.param('userId');
    if (!isUuid(id)) throw new HttpProblem(404, 'Nobody with that id.', 'visitor_not_found');
    const person = await visitorById(db, c.get('tenant'), id);
    if (!person) throw new HttpProblem(404, 'Nobody with that id.', 'visitor_not_found');
    return c.json<VisitVisitor>({
      id: person.id,
      name: person.name || person.username,
      email: person.email ?? '',
    });
  });
}

/** The request's body; the schema's own codes for the title and the location are the rule's (spec §5). */
async function readVisitRequest(c: Context<AuthEnv>): Promise<NewVisitRequest> {
  return readBody(c, newVisitRequest).catch((error: unknown) => {
    if (error instanceof HttpProblem && Array.isArray((error.problem as { errors?: unknown }).errors)) {
      const errors = (error.problem as unknown as { errors: { field: string; code: string }[] }).errors;
      for (const e of errors) {
        if (e.field === 'title') e.code = 'visit_title_invalid';
        if (e.field === 'location') e.code = 'visit_location_invalid';
      }
    }
    throw error;
  });
}

type Facility = NonNullable<Awaited<ReturnType<typeof facilityById>>>;

/** The facility asked for, when the tenant has it and its settings allow visits there. */
async function allowedFacility(db: Db, tenant: string, settings: VisitSettings, location: string) {
  const facility = await facilityById(db, tenant, location);
  const allowed =
    facility &&
    (settings.locations.length === 0 ||
      settings.locations.includes(facility.facility_id) ||
      settings.locations.includes(facility.alias));
  return allowed ? facility : undefined;
}

function checkTimes(
  errors: Map<VisitField, VisitRuleCode>,
  { start, end, at, timeZone }: { start: Date; end: Date; at: Date; timeZone: string },
) {
  if (Number.isNaN(start.getTime())) errors.set('startAt', 'visit_start_invalid');
  else if (dateIn(start, timeZone) < dateIn(at, timeZone)) errors.set('date', 'visit_date_past');
  else if (start.getTime() <= at.getTime()) errors.set('startAt', 'visit_start_past');
  if (Number.isNaN(end.getTime())) errors.set('endAt', 'wrong_format' as VisitRuleCode);
  else if (!Number.isNaN(start.getTime()) && end.getTime() <= start.getTime())
    errors.set('endAt', 'visit_end_before_arrival');
}

/**
 * Whoever may not manage all visits requests for themself: the visitor is their own account, whatever the
 * body names, so that nobody books (and has mailed to a host) a visit in somebody else's name. Reception names
 * the visitor, who may have an account of the tenant.
 */
async function visitorOf(db: Db, tenant: string, claims: AccessTokenClaims, body: NewVisitRequest) {
  if (isReception(claims)) {
    return {
      accountId: (await accountByEmail(db, tenant, body.visitor.email))?.id ?? null,
      name: body.visitor.name.trim(),
      email: body.visitor.email.trim() as string | null,
    };
  }
  const self = await accountById(db, tenant, claims.sub);
  return {
    accountId: claims.sub as string | null,
    name: self ? personName(self.first_name, self.last_name, self.username) : actorOf(claims),
    email: (self ? self.email : claims.email)?.trim() || null,
  };
}

/** POST /public/visits: checks the request by the rules of spec §5 and keeps it; answers the new visit's id. */
async function requestVisit(c: Context<AuthEnv>, v: VisitsContext): Promise<string> {
  const { db } = v;
  const tenant = c.get('tenant');
  const claims = c.get('auth');
  if (!isReception(claims) && !claims.enrolled) {
    throw new HttpProblem(403, 'Only an enrolled visitor may request a visit.', 'not_enrolled');
  }
  const body = await readVisitRequest(c);
  const settings = await v.settingsOf(tenant);
  const errors = new Map<VisitField, VisitRuleCode>();
  const at = v.now();
  const facility = await allowedFacility(db, tenant, settings, body.location);
  if (!facility) errors.set('location', 'visit_location_invalid');
  const start = new Date(body.start_at);
  const end = new Date(body.end_at);
  checkTimes(errors, { start, end, at, timeZone: facility?.timezone ?? 'UTC' });
  const visitor = await visitorOf(db, tenant, claims, body);
  const host = await accountByEmail(db, tenant, body.host);
  if (!host) errors.set('host', 'host_not_found');
  // The host's answer is what approves a request: a visitor who is their own host would approve themself.
  else if (host.id === visitor.accountId || sameEmail(host.email, visitor.email)) {
    errors.set('host', 'host_is_visitor');
  } else if (!errors.has('startAt') && !errors.has('endAt') && !errors.has('date')) {
    if (await hostBusy(db, tenant, body.host, start, end)) errors.set('startAt', 'host_busy');
  }
  if (settings.mustAcceptPlan && body.extra_fields?.emergency_instructions?.accepted !== true) {
    errors.set('planRead', 'emergency_plan_not_read');
  }
  if (errors.size > 0 || !host || !facility) {
    throw validationProblem([...errors].map(([field, code]) => ({ field, code })));
  }
  return keepVisit(c, v, { body, host, facility, visitor, start, end, at });
}

/**
 * The host's answer approves a visit: only a request the signed-in host makes is accepted at once, "approved
 * by automatic". Anyone else's (a visitor's, or reception booking for a host) waits for the host's answer by
 * the mailed link.
 */
async function keepVisit(
  c: Context<AuthEnv>,
  v: VisitsContext,
  request: {
    body: NewVisitRequest;
    host: AccountRow;
    facility: Facility;
    visitor: Awaited<ReturnType<typeof visitorOf>>;
    start: Date;
    end: Date;
    at: Date;
  },
): Promise<string> {
  const { body, host, facility, visitor, start, end, at } = request;
  const tenant = c.get('tenant');
  const claims = c.get('auth');
  const automatic = host.id === claims.sub;
  // No reason given: an empty title, which the portal shows in the reader's language.
  const title = body.title?.trim() ?? '';
  return v.db.transaction(async (tx) => {
    const id = await insertVisit(tx, tenant, {
      title,
      start,
      end,
      hostEmail: host.email,
      hostAccountId: host.id,
      facilityId: facility.facility_id,
      visitorAccountId: isUuid(visitor.accountId ?? '') ? visitor.accountId : null,
      visitorName: visitor.name,
      visitorEmail: visitor.email,
      guests: body.guests ?? 0,
      status: automatic ? 'accepted' : 'requested',
      extraFields: body.extra_fields ?? {},
      createdBy: isUuid(claims.sub) ? claims.sub : null,
    });
    await appendHistory(tx, tenant, id, { action: 'requested', actor: actorOf(claims), at });
    if (automatic) {
      await appendHistory(tx, tenant, id, { action: 'approved', actor: 'automatic', at });
      return id;
    }
    const token = await makeVisitToken(tx, tenant, id, new Date(at.getTime() + v.tokenTtlMs));
    const origin = portalOriginOf(c, tenant, { origins: v.origins, trustProxy: v.deps.trustProxy });
    if (!origin) throw new HttpProblem(500, 'No known origin for this tenant.', 'internal_error');
    await mailHost(tx, {
      tenant,
      to: host.email as string,
      hostName: personName(host.first_name, host.last_name, host.username),
      hostLocale: host.locale,
      visitorName: visitor.name,
      when: displayDateTimeIn(start, facility.timezone),
      place: facility.alias,
      title,
      link: `${origin}/confirmation/${token}/${id}`,
    });
    return id;
  });
}

function statusRoutes(app: Hono<AuthEnv>, { db, auth, now, either, visibleVisit }: VisitsContext) {
  app.post('/public/visits/:id/cancellation', either, async (c) => {
    const visit = await visibleVisit(c);
    const tenant = c.get('tenant');
    const at = now();
    const refusal = cancellationRefusal(visit, at);
    if (refusal) throw new HttpProblem(409, REFUSALS[refusal], refusal);
    const moved = await db.transaction(async (tx) => {
      if (!(await moveVisit(tx, tenant, visit.id, ['requested', 'accepted'], 'cancelled'))) return false;
      await appendHistory(tx, tenant, visit.id, { action: 'cancelled', actor: actorOf(c.get('auth')), at });
      return true;
    });
    if (!moved) throw new HttpProblem(409, REFUSALS.visit_already_has_checkins, 'visit_already_has_checkins');
    return c.json<Visit>(publicVisit((await findVisit(db, tenant, visit.id)) as StoredVisit));
  });

  const checksIn = recordsStaffAction(db, { action: 'visit.check_in' });
  app.put('/public/visits/:id/checkin', auth.requireAuth(RECEPTION), checksIn, async (c) => {
    const visit = await visibleVisit(c);
    noteStaffAction(c, { subject: visit.visitor });
    const { via } = await readBody(c, visitCheckBody);
    const tenant = c.get('tenant');
    const refusal = checkInRefusal(visit.status);
    if (refusal) throw new HttpProblem(409, REFUSALS[refusal], refusal);
    // Check-in is for today's visits, today in the facility's timezone (the day the visitor is expected).
    if (!isVisitDay(visit, now())) {
      const day = displayDateIn(new Date(visit.expected_at), visit.location.timezone);
      throw new HttpProblem(409, `${REFUSALS.visit_not_today} This visit is on ${day}.`, 'visit_not_today');
    }
    const kiosk = via === 'kiosk';
    // Refused inside the transaction, so that a refusal records nothing.
    await recordsWithin(c, db, async (tx) => {
      if (!(await moveVisit(tx, tenant, visit.id, ['accepted'], 'checked_in')))
        throw new HttpProblem(409, REFUSALS.visit_already_checked_in, 'visit_already_checked_in');
      await appendHistory(tx, tenant, visit.id, {
        action: kiosk ? 'checked_in' : 'arrived',
        actor: kiosk ? 'kiosk' : actorOf(c.get('auth')),
        at: now(),
      });
    });
    return c.json<Visit>(publicVisit((await findVisit(db, tenant, visit.id)) as StoredVisit));
  });

  const checksOut = recordsStaffAction(db, { action: 'visit.check_out' });
  app.put('/public/visits/:id/checkout', auth.requireAuth(RECEPTION), checksOut, async (c) => {
    const visit = await visibleVisit(c);
    noteStaffAction(c, { subject: visit.visitor });
    const { via } = await readBody(c, visitCheckBody);
    const tenant = c.get('tenant');
    const kiosk = via === 'kiosk';
    await recordsWithin(c, db, async (tx) => {
      if (!(await moveVisit(tx, tenant, visit.id, ['checked_in'], 'checked_out')))
        throw new HttpProblem(409, REFUSALS.visit_not_checked_in, 'visit_not_checked_in');
      await appendHistory(tx, tenant, visit.id, {
        action: kiosk ? 'checked_out' : 'left',
        actor: kiosk ? 'terminal' : actorOf(c.get('auth')),
        at: now(),
      });
    });
    return c.json<Visit>(publicVisit((await findVisit(db, tenant, visit.id)) as StoredVisit));
  });
}

function confirmationRoute(app: Hono<AuthEnv>, { db, now }: VisitsContext) {
  // The host's answer by link (spec §2 VisitConfirmation): no session, the mailed token as bearer.
  app.post('/public/visits/:id/confirmation', async (c) => {
    const tenant = c.get('tenant');
    const id = c.req.param('id');
    const bearer = /^Bearer +(\S+)$/i.exec(c.req.header('authorization')?.trim() ?? '')?.[1] ?? '';
    const token = await readVisitToken(db, tenant, bearer);
    // 400, not 401: the portal signs a person out on a 401, and the host may be signed in on this browser.
    if (!token.ok || token.visitId !== id || !isUuid(id)) {
      throw new HttpProblem(400, 'This confirmation link is not valid.', 'invalid_token');
    }
    const { outcome } = await readBody(c, visitConfirmationBody);
    const at = now();
    if (token.expiresAt.getTime() <= at.getTime()) {
      throw new HttpProblem(410, 'This confirmation link has expired.', 'token_expired');
    }
    const visit = await findVisit(db, tenant, id);
    if (!visit) throw notFound();
    if (visit.status !== 'requested') {
      const code = answeredRefusal(visit);
      throw new HttpProblem(409, REFUSALS[code], code);
    }
    const host = visit.hostAccountId ? await accountById(db, tenant, visit.hostAccountId) : undefined;
    const hostName = host ? personName(host.first_name, host.last_name, host.username) : visit.host.email;
    const accept = outcome === 'accept';
    const moved = await db.transaction(async (tx) => {
      if (!(await moveVisit(tx, tenant, id, ['requested'], accept ? 'accepted' : 'cancelled'))) return false;
      await appendHistory(tx, tenant, id, { action: accept ? 'approved' : 'rejected', actor: hostName, at });
      return true;
    });
    if (!moved) throw new HttpProblem(409, REFUSALS.visit_already_accepted, 'visit_already_accepted');
    return c.json<VisitConfirmationResult>({ id, status: accept ? 'accepted' : 'cancelled' });
  });
}

function devClockRoutes(app: Hono<AuthEnv>, { auth, clock }: VisitsContext) {
  // Development only: the clock of the visit rules, read and moved (server/clock.ts). Besides answering only
  // loopback callers outside production (server/dev-routes.ts), it changes "now" for every tenant of this
  // process: only an administrator's token may move it (as with the fault switches).
  if (isMovable(clock)) {
    const admin = auth.requireAuth('delete_users_all');
    app.get('/dev/clock', admin, (c) => c.json({ now: clock.now().toISOString() }));
    app.put('/dev/clock', admin, async (c) => {
      const body = await readBody(c, devClockBody);
      if (body.at === null) clock.reset();
      else {
        const at = new Date(body.at);
        if (Number.isNaN(at.getTime()) || body.at.length > 40) {
          throw validationProblem([{ field: 'at', code: 'wrong_format' }]);
        }
        clock.set(at);
      }
      return c.json({ now: clock.now().toISOString() });
    });
  }
}

/** PUT /api/dev/clock: an ISO instant, or null for the system's time (development only, not the contract). */
const devClockBody = type({ at: 'string | null' });
