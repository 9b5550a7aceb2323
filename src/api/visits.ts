import type {
  NewVisitRequest,
  Visit,
  VisitArrival,
  VisitPage,
  VisitVisitor,
} from '../../contract/api/visits.ts';
import { visit, visitArrival, visitPage, visitVisitor } from './answers.ts';
import type { ApiClient, RequestOptions } from './client.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers' | 'onError'>;

export interface VisitListQuery {
  pageSize: number;
  pageIndex: number;
  fromDate?: string;
  toDate?: string;
  /** 'pending': only visits still to happen (requested or accepted). */
  status?: 'pending';
  visitor?: string;
  /** The host (spec §7 calls it user). */
  user?: string;
  orderby?: string;
  sorted?: 'asc' | 'desc';
}

// Spec §7 Visits: GET /public/visits with pageSize, pageIndex, bookmark, fromDate, toDate, orderby, sorted,
// visitor, user.
export function listVisits(
  api: ApiClient,
  query: VisitListQuery,
  options: CallOptions = {},
): Promise<VisitPage> {
  const searchParams: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') searchParams[key] = value;
  }
  return api.get('/public/visits', { ...options, searchParams, schema: visitPage });
}

export function getVisit(api: ApiClient, id: string, options: CallOptions = {}): Promise<Visit> {
  return api.get(`/public/visits/${encodeURIComponent(id)}`, { ...options, schema: visit });
}

export function createVisit(
  api: ApiClient,
  body: NewVisitRequest,
  options: CallOptions = {},
): Promise<Visit> {
  return api.post('/public/visits', { ...options, json: body, schema: visit });
}

export function cancelVisit(api: ApiClient, id: string, options: CallOptions = {}): Promise<Visit> {
  return api.post(`/public/visits/${encodeURIComponent(id)}/cancellation`, { ...options, schema: visit });
}

export function checkInVisit(
  api: ApiClient,
  id: string,
  via: 'kiosk' | 'reception',
  options: CallOptions = {},
): Promise<Visit> {
  return api.put(`/public/visits/${encodeURIComponent(id)}/checkin`, {
    ...options,
    json: { via },
    schema: visit,
  });
}

export function checkOutVisit(
  api: ApiClient,
  id: string,
  via: 'kiosk' | 'reception',
  options: CallOptions = {},
): Promise<Visit> {
  return api.put(`/public/visits/${encodeURIComponent(id)}/checkout`, {
    ...options,
    json: { via },
    schema: visit,
  });
}

/** The host's answer with the mailed token as bearer, not the session's (the host may not be signed in). */
export async function confirmVisit(
  api: ApiClient,
  id: string,
  token: string,
  outcome: 'accept' | 'reject',
  options: CallOptions = {},
): Promise<void> {
  // A 2xx is the visit answered as the host asked: its body only echoes that, and is not read.
  await api.post(`/public/visits/${encodeURIComponent(id)}/confirmation`, {
    ...options,
    auth: false,
    headers: { authorization: `Bearer ${token}` },
    json: { outcome },
    responseType: 'none',
  });
}

/** Reception: today's visit of the person whose QR was read (or whose access id was typed). */
export function findArrival(api: ApiClient, code: string, options: CallOptions = {}): Promise<VisitArrival> {
  return api.get('/public/visits/arrival', { ...options, searchParams: { code }, schema: visitArrival });
}

/** Reception: the person a new visit is for (NewVisit opened as new-visit/{userId}); 404 when not of the tenant. */
export function getVisitor(api: ApiClient, userId: string, options: CallOptions = {}): Promise<VisitVisitor> {
  return api.get(`/public/visits/visitors/${encodeURIComponent(userId)}`, {
    ...options,
    schema: visitVisitor,
  });
}

/** The visitor's QR for a visit, as a PNG (VisitDetail's print-QR). */
export function visitQr(api: ApiClient, id: string, options: CallOptions = {}): Promise<Blob> {
  return api.get(`/public/visits/${encodeURIComponent(id)}/qr`, {
    ...options,
    responseType: 'blob',
    mediaType: 'image/',
  });
}
