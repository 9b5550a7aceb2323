// The effects the visit screens' machines name (spec §7 Visits): the calls of the three visit machines, the list machine's
// pages of visits, the facilities of NewVisit, reception's arrival lookup, and NewVisit's draft kept in
// sessionStorage so that what was typed survives a reload (spec §3: only auth and onboarding state go to
// localStorage).

import type { Facility } from '../../contract/api/facilities';
import {
  decodeVisitFilter,
  emptyNewVisitForm,
  type NewVisitForm,
  presetRange,
} from '../../contract/domain/visits';
import { listMachine, type Page, type PageQuery } from '../../machines/list.machine';
import { type VisitCallError, visitMachine } from '../../machines/visit.machine';
import { visitConfirmationMachine } from '../../machines/visit-confirmation.machine';
import { visitFacilitiesMachine } from '../../machines/visit-facilities.machine';
import { visitRequestMachine } from '../../machines/visit-request.machine';
import { type ApiError, isApiError, serverText } from '../api/errors';
import { lazyCalls } from '../api/lazy';
import { PAGE_SIZES } from '../domain/lists';
import type { Runtime } from '../runtime/context';
import type { ArrivalOutcome, NewVisitDraftStore } from '../runtime/machines';
import { firstPageQuery } from './first-page';
import { type FirstCalls, preloadable } from './preloaded-calls';
import { fromPromise } from './promise';

const facilities = lazyCalls(() => import('../api/facilities'));
const visits = lazyCalls(() => import('../api/visits'));
const {
  cancelVisit,
  checkInVisit,
  checkOutVisit,
  confirmVisit,
  createVisit,
  findArrival,
  getVisit,
  getVisitor,
  visitQr,
} = visits;
// The first calls of MyVisits, VisitList and NewVisit (src/actors/preload.ts).
const listFacilities = preloadable('listFacilities', facilities.listFacilities);
const listVisits = preloadable('listVisits', visits.listVisits);

// The server names request fields (spec §3 New visit request); the form names its own.
const FORM_FIELD: Record<string, string> = {
  start_at: 'startAt',
  end_at: 'endAt',
  'visitor.name': 'visitorName',
  'visitor.email': 'visitorEmail',
  extra_fields: 'planRead',
  'extra_fields.emergency_instructions': 'planRead',
};

/** What the machine sees of a failed call: status, the server's code, reason and text, the 422 fields. */
export function visitCallError(error: unknown): VisitCallError {
  if (!isApiError(error)) return { status: 0, code: null, detail: null, text: null, fieldErrors: {} };
  const fieldErrors: Record<string, string> = {};
  for (const e of error.problem?.errors ?? []) fieldErrors[FORM_FIELD[e.field] ?? e.field] = e.code;
  return {
    status: error.status,
    code: error.problem?.code ?? null,
    detail: error.problem?.detail ?? null,
    text: error.kind === 'http' ? serverText(error) || null : null,
    fieldErrors,
  };
}

// Refusals and field errors are the screen's to show (an error state of the machine); anything else the
// API client reports as usual.
const quiet = () => {};
const REFUSALS = { handlers: { 400: quiet, 404: quiet, 409: quiet, 410: quiet, 422: quiet } };

type Api = Pick<Runtime, 'apiClient'>;

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw visitCallError(error);
  }
}

/** The visit machine (one known visit) with the real calls. */
export function visitLogic(runtime: Api) {
  return visitMachine.provide({
    actors: {
      fetchVisit: fromPromise(async ({ input, signal }) => {
        return call(async () => getVisit(await runtime.apiClient(), input.visitId, { signal, ...REFUSALS }));
      }),
      cancelVisit: fromPromise(async ({ input, signal }) =>
        call(async () => cancelVisit(await runtime.apiClient(), input.visitId, { signal, ...REFUSALS })),
      ),
      checkIn: fromPromise(async ({ input, signal }) =>
        call(async () =>
          checkInVisit(await runtime.apiClient(), input.visitId, input.via, { signal, ...REFUSALS }),
        ),
      ),
      checkOut: fromPromise(async ({ input, signal }) =>
        call(async () =>
          checkOutVisit(await runtime.apiClient(), input.visitId, input.via, { signal, ...REFUSALS }),
        ),
      ),
    },
  });
}

/** NewVisit's machine with the real calls; `onSent` hears the request the server made a visit of. */
export function visitRequestLogic(runtime: Api, options: { onSent?: () => void } = {}) {
  return visitRequestMachine.provide({
    actors: {
      createVisit: fromPromise(async ({ input, signal }) =>
        call(async () => createVisit(await runtime.apiClient(), input.request, { signal, ...REFUSALS })),
      ),
      // Only a 404 (nobody with that id) is the form's to say; any other failure the API client says, in the
      // server's words for a code the portal has none for, and the visitor is typed by hand.
      fetchVisitor: fromPromise(async ({ input, signal }) =>
        call(async () =>
          getVisitor(await runtime.apiClient(), input.userId, { signal, handlers: { 404: quiet } }),
        ),
      ),
    },
    actions: { visitChanged: () => options.onSent?.() },
  });
}

/** VisitConfirmation's machine with the real call. */
export function visitConfirmationLogic(runtime: Api) {
  return visitConfirmationMachine.provide({
    actors: {
      // The link's token is the call's bearer, not a session: a 401 is that token refused (the link not valid),
      // never "your session has expired" to a host who may not be signed in at all.
      confirmVisit: fromPromise(async ({ input, signal }) => {
        try {
          return await call(async () =>
            confirmVisit(await runtime.apiClient(), input.visitId, input.token, input.outcome, {
              signal,
              handlers: { ...REFUSALS.handlers, 401: quiet },
            }),
          );
        } catch (error) {
          const failed = error as VisitCallError;
          throw failed.status === 401 && !failed.code ? { ...failed, code: 'invalid_token' } : failed;
        }
      }),
    },
  });
}

/** A page of GET /public/visits; the list's filter string is a VisitFilter (contract/domain/visits.ts). */
const visitsPage =
  (runtime: Api, timeZone: string, now: () => Date) =>
  async ({ input, signal }: { input: PageQuery; signal: AbortSignal }): Promise<Page> => {
    const filter = decodeVisitFilter(input.filter);
    const range = presetRange(filter.preset, now(), timeZone);
    return listVisits(
      await runtime.apiClient(),
      {
        pageSize: input.pageSize,
        pageIndex: input.pageIndex,
        fromDate: range.fromDate,
        toDate: range.toDate,
        ...(range.pending ? { status: 'pending' as const } : {}),
        visitor: filter.visitor,
        user: filter.host,
        orderby: filter.orderby,
        sorted: filter.sorted,
      },
      { signal },
    );
  };

/** The list machine over GET /public/visits. */
export function visitListLogic(runtime: Api, timeZone: string, now: () => Date = () => new Date()) {
  return listMachine.provide({
    actors: { fetchPage: fromPromise<Page, PageQuery>(visitsPage(runtime, timeZone, now)) },
  });
}

/** MyVisits' and VisitList's first call: the first page of the default filter, in the tenant's days. */
export const visitListFirstCalls: FirstCalls = (runtime, _session, signal) =>
  visitsPage(
    runtime,
    runtime.app.getSnapshot().context.tenant?.settings.timeZone ?? '',
    () => new Date(),
  )({ input: firstPageQuery(PAGE_SIZES.visits), signal });

/**
 * NewVisit's places machine: the facilities a visit can be booked at (GET /internal/facilities), limited to the
 * tenant's visits.locations.
 */
export function facilitiesLogic(runtime: Api, locations: readonly string[]) {
  return visitFacilitiesMachine.provide({
    actors: { loadFacilities: fromPromise<Facility[]>(placesOf(runtime, locations)) },
  });
}

const placesOf =
  (runtime: Api, locations: readonly string[]) =>
  async ({ signal }: { signal: AbortSignal }): Promise<Facility[]> => {
    const all = await listFacilities(await runtime.apiClient(), { signal });
    return locations.length === 0
      ? all
      : all.filter((f) => locations.includes(f.facility_id) || locations.includes(f.alias));
  };

/** NewVisit's first call: the facilities a visit can be booked at. */
export const newVisitFirstCalls: FirstCalls = (runtime, _session, signal) =>
  placesOf(runtime, runtime.app.getSnapshot().context.tenant?.settings.visits.locations ?? [])({ signal });

/** Reception: today's visit of the person whose code was read; refusals as outcomes, not errors. */
export function arrivalLogic(runtime: Api) {
  return fromPromise<ArrivalOutcome, { code: string }>(async ({ input, signal }) => {
    try {
      const arrival = await findArrival(await runtime.apiClient(), input.code, { signal, ...REFUSALS });
      return { kind: 'found', arrival };
    } catch (error) {
      const problem = isApiError(error) ? (error as ApiError).problem : undefined;
      const code = problem?.code;
      if (code === 'no_visit_today' || code === 'credential_not_valid') return { kind: 'refused', code };
      // Another code: the screen says it in words when it has them, else what the server said (detail, else title).
      if (!code) return { kind: 'refused', code: 'unknown' };
      const text = (problem?.detail || problem?.title || '').trim();
      return { kind: 'refused', code: 'unknown', problem: { code, text } };
    }
  });
}

/**
 * The visitor's QR of a visit as an object URL (img-src blob:), or null when they hold no valid one (a 404: the
 * screen says so, and how to have one). Any other failure rejects: the screen says the QR could not be loaded, with
 * a retry, and why (no answer, too slow, a server fault, a refusal) is the API client's notice beside it, as for
 * every other call the screens make.
 */
export function visitQrLogic(runtime: Api) {
  return fromPromise<string | null, { visitId: string }>(async ({ input, signal }) => {
    try {
      const png = await visitQr(await runtime.apiClient(), input.visitId, {
        signal,
        handlers: { 404: quiet },
      });
      return URL.createObjectURL(png);
    } catch (error) {
      if (isApiError(error) && error.status === 404) return null;
      throw error;
    }
  });
}

const draftKey = (tenant: string, userId: string) => `visits.draft.${tenant}.${userId}`;

/** NewVisit's typed values, kept per tenant and person for the tab's life (a reload keeps them). */
export const newVisitDraft: NewVisitDraftStore = {
  load(tenant: string, userId: string): NewVisitForm {
    try {
      const raw = sessionStorage.getItem(draftKey(tenant, userId));
      return raw
        ? { ...emptyNewVisitForm(), ...(JSON.parse(raw) as Partial<NewVisitForm>) }
        : emptyNewVisitForm();
    } catch {
      return emptyNewVisitForm();
    }
  },
  save(tenant: string, userId: string, form: NewVisitForm): void {
    try {
      sessionStorage.setItem(draftKey(tenant, userId), JSON.stringify(form));
    } catch {
      // A full or disabled storage only loses the draft on reload.
    }
  },
  clear(tenant: string, userId: string): void {
    try {
      sessionStorage.removeItem(draftKey(tenant, userId));
    } catch {
      // Nothing to clear.
    }
  },
};
