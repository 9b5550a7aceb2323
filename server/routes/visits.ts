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
  newVisitRequest,
  type Visit,
  type VisitArrival,
  type VisitConfirmationResult,
  type VisitPage,
  type VisitStatus,
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
import { clockFromEnv, isMovable } from '../clock';
import type { AppDeps } from '../context';
import { HttpProblem } from '../http/problem';
import { isUuid, readBody, validationProblem } from '../http/validation';
import { portalOriginOf } from '../origins';
import { qrPng } from '../qr';
import { mailHost } from '../visits/mail';
import type { VisitsOptions } from '../visits/options';
import { visitSettingsLoader } from '../visits/settings';
import {
  accountByEmail,
  accountById,
  appendHistory,
  findVisit,
  hostBusy,
  listVisits,
  moveVisit,
  personName,
  publicVisit,
  type StoredVisit,
} from '../visits/store';
import { makeVisitToken, readVisitToken, visitTokenTtlMs } from '../visits/token';
import { credentialPayload, isValidCredential } from './credentials';

const RECEPTION = 'post_visits_all';
const VISITOR = 'post_visits_me';
const MAX_PAGE_SIZE = 100;

const notFound = () => new HttpProblem(404, 'No visit with that id.', 'not_found');

function intParam(value: string | undefined, name: string, fallback: number, min: number, max: number) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new HttpProblem(400, `${name} must be an integer from ${min} to ${max}.`, 'invalid_query');
  }
  return n;
}

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

const isReception = (claims: AccessTokenClaims) => claims.roles.includes(RECEPTION);

const sameEmail = (a: string | null | undefined, b: string | null | undefined) =>
  Boolean(a && b && a.trim().toLowerCase() === b.trim().toLowerCase());

/** Who did it, for the history: the person's name as the token says, else their username or email. */
const actorOf = (claims: AccessTokenClaims) =>
  claims.name?.trim() || claims.preferred_username || claims.email || claims.sub;

export function visitsRoutes(deps: AppDeps, auth: ApiAuth, options: VisitsOptions = {}): Hono<AuthEnv> {
  const { db } = deps;
  const clock = options.clock ?? (options.now ? { now: options.now } : clockFromEnv());
  const now = () => clock.now();
  const tokenTtlMs = options.tokenTtlMs ?? visitTokenTtlMs();
  const origins = options.origins ?? deps.origins;
  const settingsOf = visitSettingsLoader(deps.config.publicDir);
  const app = new Hono<AuthEnv>();
  const either = auth.requireAuth(VISITOR, RECEPTION);

  /** The visit the caller may act on: any of the tenant for reception, their own for a visitor; else 404. */
  async function visibleVisit(c: Context<AuthEnv>): Promise<StoredVisit> {
    const id = c.req.param('id') ?? '';
    if (!isUuid(id)) throw notFound();
    const claims = c.get('auth');
    const visit = await findVisit(db, c.get('tenant'), id, isReception(claims) ? undefined : claims.sub);
    if (!visit) throw notFound();
    return visit;
  }

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
    const { rows: users } = await db.query<{ user_id: string; account_id: string | null; name: string }>(
      `select user_id::text as user_id, account_id,
              trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) as name
         from users where tenant = $1 and acs_id = $2 limit 1`,
      [tenant, acsId],
    );
    const user = users[0];
    if (!user) throw new HttpProblem(404, 'Nobody holds this code.', 'no_visit_today');
    const { rows: credentials } = await db.query<{
      credential_type: 'qr' | 'embedding' | 'enrolment_proof';
      state: 'active' | 'revoked';
      ends_at: Date | null;
    }>(
      `select credential_type, state, ends_at from credentials
        where tenant = $1 and user_id = $2::uuid and credential_type = 'qr' ${parsed ? 'and sid::text = $3' : ''}`,
      parsed ? [tenant, user.user_id, parsed.sid] : [tenant, user.user_id],
    );
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
    const rank: Record<VisitStatus, number> = {
      checked_in: 0,
      accepted: 1,
      requested: 2,
      checked_out: 3,
      cancelled: 9,
    };
    const today = items
      .filter((v) => v.status !== 'cancelled')
      .filter((v) => isVisitDay(v, now()))
      .sort((a, b) => rank[a.status] - rank[b.status]);
    const visit = today[0];
    if (!visit) throw new HttpProblem(404, 'This person has no visit today.', 'no_visit_today');
    return c.json<VisitArrival>({ visit: publicVisit(visit), person: { name: user.name, acs_id: acsId } });
  });

  // Reception opening NewVisit for a person (new-visit/{userId}): the user record's or the account's id.
  app.get('/public/visits/visitors/:userId', auth.requireAuth(RECEPTION), async (c) => {
    const id = c.req.param('userId');
    if (!isUuid(id)) throw new HttpProblem(404, 'Nobody with that id.', 'visitor_not_found');
    const { rows } = await db.query<{ id: string; name: string; email: string | null; username: string }>(
      `select a.id::text as id, a.username, coalesce(u.email, a.email) as email,
              trim(coalesce(u.first_name, a.first_name, '') || ' ' || coalesce(u.last_name, a.last_name, '')) as name
         from accounts a left join users u on u.tenant = a.tenant and u.account_id = a.id::text
        where a.tenant = $1 and (a.id = $2::uuid or u.user_id = $2::uuid)
        limit 1`,
      [c.get('tenant'), id],
    );
    const person = rows[0];
    if (!person) throw new HttpProblem(404, 'Nobody with that id.', 'visitor_not_found');
    return c.json<VisitVisitor>({
      id: person.id,
      name: person.name || person.username,
      email: person.email ?? '',
    });
  });

  app.get('/public/visits/:id', either, async (c) => c.json<Visit>(publicVisit(await visibleVisit(c))));

  // The visitor's QR to print with the visit (VisitDetail print-QR): their newest valid QR credential.
  app.get('/public/visits/:id/qr', either, async (c) => {
    const visit = await visibleVisit(c);
    const tenant = c.get('tenant');
    const { rows } = await db.query<{
      acs_id: string;
      sid: string;
      credential_type: 'qr';
      state: 'active' | 'revoked';
      ends_at: Date | null;
    }>(
      `select u.acs_id, c.sid::text as sid, c.credential_type, c.state, c.ends_at
         from users u join credentials c on c.tenant = u.tenant and c.user_id = u.user_id
        where u.tenant = $1 and u.account_id = $2 and c.credential_type = 'qr'
        order by c.created_at desc`,
      [tenant, visit.visitor ?? ''],
    );
    const valid = rows.find((row) => isValidCredential(row, now()));
    if (!valid) throw new HttpProblem(404, 'The visitor holds no valid QR credential.', 'not_found');
    const png = await qrPng(credentialPayload(tenant, valid.acs_id, valid.sid));
    c.header('Cache-Control', 'no-store');
    return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png' });
  });

  app.post('/public/visits', either, async (c) => {
    const tenant = c.get('tenant');
    const claims = c.get('auth');
    const reception = isReception(claims);
    if (!reception && !claims.enrolled) {
      throw new HttpProblem(403, 'Only an enrolled visitor may request a visit.', 'not_enrolled');
    }
    const body = await readBody(c, newVisitRequest).catch((error: unknown) => {
      // The schema's own codes for the title and the location are the rule's (spec §5 valid location and title).
      if (error instanceof HttpProblem && Array.isArray((error.problem as { errors?: unknown }).errors)) {
        const errors = (error.problem as unknown as { errors: { field: string; code: string }[] }).errors;
        for (const e of errors) {
          if (e.field === 'title') e.code = 'visit_title_invalid';
          if (e.field === 'location') e.code = 'visit_location_invalid';
        }
      }
      throw error;
    });
    const settings = await settingsOf(tenant);
    const errors = new Map<VisitField, VisitRuleCode>();
    const at = now();

    const { rows: facilities } = await db.query<{ facility_id: string; alias: string; timezone: string }>(
      'select facility_id, alias, timezone from facilities where tenant = $1 and facility_id = $2',
      [tenant, body.location],
    );
    const facility = facilities[0];
    const allowed =
      facility &&
      (settings.locations.length === 0 ||
        settings.locations.includes(facility.facility_id) ||
        settings.locations.includes(facility.alias));
    if (!facility || !allowed) errors.set('location', 'visit_location_invalid');
    const timeZone = facility?.timezone ?? 'UTC';

    const start = new Date(body.start_at);
    const end = new Date(body.end_at);
    if (Number.isNaN(start.getTime())) errors.set('startAt', 'visit_start_invalid');
    else if (dateIn(start, timeZone) < dateIn(at, timeZone)) errors.set('date', 'visit_date_past');
    else if (start.getTime() <= at.getTime()) errors.set('startAt', 'visit_start_past');
    if (Number.isNaN(end.getTime())) errors.set('endAt', 'wrong_format' as VisitRuleCode);
    else if (!Number.isNaN(start.getTime()) && end.getTime() <= start.getTime())
      errors.set('endAt', 'visit_end_before_arrival');

    // Whoever may not manage all visits requests for themself: the visitor is their own account, whatever the
    // body names, so that nobody books (and has mailed to a host) a visit in somebody else's name. Reception names
    // the visitor, who may have an account of the tenant.
    const self = reception ? undefined : await accountById(db, tenant, claims.sub);
    const visitor = reception
      ? {
          accountId: (await accountByEmail(db, tenant, body.visitor.email))?.id ?? null,
          name: body.visitor.name.trim(),
          email: body.visitor.email.trim(),
        }
      : {
          accountId: claims.sub,
          name: self ? personName(self.first_name, self.last_name, self.username) : actorOf(claims),
          email: (self ? self.email : claims.email)?.trim() || null,
        };

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

    // The host's answer approves a visit: only a request the signed-in host makes is accepted at once, "approved
    // by automatic". Anyone else's (a visitor's, or reception booking for a host) waits for the host's answer by
    // the mailed link.
    const automatic = host.id === claims.sub;
    // No reason given: an empty title, which the portal shows in the reader's language.
    const title = body.title?.trim() ?? '';
    const hostName = personName(host.first_name, host.last_name, host.username);
    const visitId = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `insert into visits (tenant, title, expected_at, leaving_at, host_email, host_account_id, facility_id,
           visitor_account_id, visitor_name, visitor_email, guests, status, extra_fields, created_by)
         values ($1, $2, $3, $4, $5, $6::uuid, $7, $8::uuid, $9, $10, $11, $12, $13, $14::uuid)
         returning visit_id::text as id`,
        [
          tenant,
          title,
          start,
          end,
          host.email,
          host.id,
          facility.facility_id,
          isUuid(visitor.accountId ?? '') ? visitor.accountId : null,
          visitor.name,
          visitor.email,
          body.guests ?? 0,
          automatic ? 'accepted' : 'requested',
          JSON.stringify(body.extra_fields ?? {}),
          isUuid(claims.sub) ? claims.sub : null,
        ],
      );
      const id = rows[0]?.id as string;
      await appendHistory(tx, tenant, id, { action: 'requested', actor: actorOf(claims), at });
      if (automatic) {
        await appendHistory(tx, tenant, id, { action: 'approved', actor: 'automatic', at });
      } else {
        const token = await makeVisitToken(tx, tenant, id, new Date(at.getTime() + tokenTtlMs));
        const origin = portalOriginOf(c, tenant, { origins, trustProxy: deps.trustProxy });
        if (!origin) throw new HttpProblem(500, 'No known origin for this tenant.', 'internal_error');
        await mailHost(tx, {
          tenant,
          to: host.email as string,
          hostName,
          hostLocale: host.locale,
          visitorName: visitor.name,
          when: displayDateTimeIn(start, facility.timezone),
          place: facility.alias,
          title,
          link: `${origin}/confirmation/${token}/${id}`,
        });
      }
      return id;
    });
    const created = await findVisit(db, tenant, visitId);
    return c.json<Visit>(publicVisit(created as StoredVisit), 201);
  });

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

  app.put('/public/visits/:id/checkin', auth.requireAuth(RECEPTION), async (c) => {
    const visit = await visibleVisit(c);
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
    const moved = await db.transaction(async (tx) => {
      if (!(await moveVisit(tx, tenant, visit.id, ['accepted'], 'checked_in'))) return false;
      await appendHistory(tx, tenant, visit.id, {
        action: kiosk ? 'checked_in' : 'arrived',
        actor: kiosk ? 'kiosk' : actorOf(c.get('auth')),
        at: now(),
      });
      return true;
    });
    if (!moved) throw new HttpProblem(409, REFUSALS.visit_already_checked_in, 'visit_already_checked_in');
    return c.json<Visit>(publicVisit((await findVisit(db, tenant, visit.id)) as StoredVisit));
  });

  app.put('/public/visits/:id/checkout', auth.requireAuth(RECEPTION), async (c) => {
    const visit = await visibleVisit(c);
    const { via } = await readBody(c, visitCheckBody);
    const tenant = c.get('tenant');
    const kiosk = via === 'kiosk';
    const moved = await db.transaction(async (tx) => {
      if (!(await moveVisit(tx, tenant, visit.id, ['checked_in'], 'checked_out'))) return false;
      await appendHistory(tx, tenant, visit.id, {
        action: kiosk ? 'checked_out' : 'left',
        actor: kiosk ? 'terminal' : actorOf(c.get('auth')),
        at: now(),
      });
      return true;
    });
    if (!moved) throw new HttpProblem(409, REFUSALS.visit_not_checked_in, 'visit_not_checked_in');
    return c.json<Visit>(publicVisit((await findVisit(db, tenant, visit.id)) as StoredVisit));
  });

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
      const rejected = visit.history.some((h) => h.action === 'rejected');
      const code = rejected
        ? 'visit_already_rejected'
        : visit.status === 'cancelled'
          ? 'visit_already_cancelled'
          : 'visit_already_accepted';
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

  return app;
}

/** PUT /api/dev/clock: an ISO instant, or null for the system's time (development only, not the contract). */
const devClockBody = type({ at: 'string | null' });

type Refusal =
  | 'visit_already_started'
  | 'visit_already_has_checkins'
  | 'visit_already_cancelled'
  | 'visit_not_accepted'
  | 'visit_already_checked_in'
  | 'visit_not_checked_in'
  | 'visit_not_today'
  | 'visit_already_accepted'
  | 'visit_already_rejected';

/** The reasons of spec §8, read by the portal from the response (detail) and by code. */
const REFUSALS: Record<Refusal, string> = {
  visit_already_started: 'The visit has already started; it can no longer be cancelled.',
  visit_already_has_checkins: 'The visit already has check-ins; it can no longer be cancelled.',
  visit_already_cancelled: 'The visit has been cancelled.',
  visit_not_accepted: 'The host has not accepted the visit yet.',
  visit_already_checked_in: 'The visitor has already checked in.',
  visit_not_checked_in: 'The visitor has not checked in.',
  visit_not_today: "Check-in is for today's visits only.",
  visit_already_accepted: 'The visit has already been accepted.',
  visit_already_rejected: 'The visit has already been rejected.',
};

function checkInRefusal(status: VisitStatus): Refusal | null {
  switch (status) {
    case 'accepted':
      return null;
    case 'requested':
      return 'visit_not_accepted';
    case 'checked_in':
    case 'checked_out':
      return 'visit_already_checked_in';
    case 'cancelled':
      return 'visit_already_cancelled';
  }
}
