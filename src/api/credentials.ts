import type {
  Credential,
  CredentialState,
  RightAction,
  UserCredentials,
  UserLocations,
} from '../../contract/api/credentials.ts';
import { credential, readAnswer, userCredentials, userLocations } from './answers.ts';
import type { ApiClient, RequestOptions } from './client.ts';
import { isApiError } from './errors.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers'>;

// Credentials and accreditations (spec §7 Credentials). `userId` is the user id, or the signed-in person's own
// account id (the server finds their user record by it).
const userPath = (userId: string) => `/public/credentials/${encodeURIComponent(userId)}`;
const sidPath = (userId: string, sid: string) => `${userPath(userId)}/sids/${encodeURIComponent(sid)}`;

/** GET /public/credentials/{userId}: the person's credentials keyed by sid. */
export function getUserCredentials(
  api: ApiClient,
  userId: string,
  options: CallOptions = {},
): Promise<UserCredentials> {
  return api.get(userPath(userId), { ...options, schema: userCredentials });
}

/** GET /public/credentials/{userId}/sids/{sid} as JSON. */
export function getCredential(
  api: ApiClient,
  userId: string,
  sid: string,
  options: CallOptions = {},
): Promise<Credential> {
  return api.get(sidPath(userId, sid), { ...options, schema: credential });
}

/** The same as a PNG QR image. */
export async function getCredentialQr(
  api: ApiClient,
  userId: string,
  sid: string,
  options: CallOptions = {},
): Promise<Blob> {
  return api.get<Blob>(`${sidPath(userId, sid)}?format=png`, {
    ...options,
    responseType: 'blob',
    mediaType: 'image/',
  });
}

/** The same as the printable PDF (tenant logo and title, name, QR, window in the facility's timezone). */
export async function getCredentialPdf(
  api: ApiClient,
  userId: string,
  sid: string,
  lang: string,
  options: CallOptions = {},
): Promise<Blob> {
  const blob = await api.get<Blob>(`${sidPath(userId, sid)}`, {
    ...options,
    searchParams: { format: 'pdf', lang },
    responseType: 'blob',
  });
  if (blob.type && blob.type !== 'application/pdf') throw new Error(`not a PDF: ${blob.type}`);
  return blob;
}

/** PUT /public/credentials/{userId}/sids/{sid}/state: active (a new 15-day window for a qr) or revoked. */
export function setCredentialState(
  api: ApiClient,
  userId: string,
  sid: string,
  state: CredentialState,
  options: CallOptions = {},
): Promise<Credential> {
  return api.put(`${sidPath(userId, sid)}/state`, { ...options, json: { state }, schema: credential });
}

/**
 * POST /internal/rights. A credential-already-exists answer is a success carrying the existing credential
 * (spec §7): it resolves with alreadyExisted true and no notice is shown for it.
 */
export async function requestRight(
  api: ApiClient,
  body: { subject: string; object: string; action: RightAction; portrayalId?: string | null },
  options: Pick<RequestOptions, 'signal'> = {},
): Promise<{ credential: Credential; alreadyExisted: boolean }> {
  try {
    const created = await api.post('/internal/rights', {
      ...options,
      json: {
        subject: body.subject,
        object: body.object,
        action: body.action,
        ...(body.portrayalId ? { claims: { portrayal_id: body.portrayalId } } : {}),
      },
      schema: credential,
      // A 409 is the caller's answer (below), not a general notice.
      handlers: { 409: () => {} },
    });
    return { credential: created, alreadyExisted: false };
  } catch (error) {
    if (isApiError(error) && error.status === 409) {
      const existing = (await readAnswer('credentialAlreadyExists', error.body))?.credential;
      if (existing) return { credential: existing, alreadyExisted: true };
    }
    throw error;
  }
}

// POST /public/credentials/{userId}/locations: add a location (a facility of the tenant) to a user's credentials.
export function addUserLocation(
  api: ApiClient,
  userId: string,
  location: string,
  options: CallOptions = {},
): Promise<UserLocations> {
  return api.post(`/public/credentials/${encodeURIComponent(userId)}/locations`, {
    ...options,
    json: { location },
    schema: userLocations,
  });
}
