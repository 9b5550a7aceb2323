import type { SingleRegistrationBody, SingleRegistrationResult } from '../../contract/api/singles.ts';
import { singleRegistrationResult } from './answers.ts';
import type { ApiClient, RequestOptions } from './client.ts';
import { isApiError } from './errors.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers' | 'headers'>;

/** 200 is taken, 404 is free (spec §5 existence checks); any other failure is thrown. */
async function taken(call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return false;
    throw error;
  }
}

// GET /internal/accounts?email=: whether an account of the tenant has this email.
export function emailTaken(api: ApiClient, email: string, options: CallOptions = {}): Promise<boolean> {
  return taken(() =>
    api.get('/internal/accounts', { ...options, searchParams: { email }, responseType: 'none' }),
  );
}

// GET /public/credentials?acs_id=: whether a user of the tenant holds this acs_id.
export function acsIdTaken(api: ApiClient, acsId: string, options: CallOptions = {}): Promise<boolean> {
  return taken(() =>
    api.get('/public/credentials', { ...options, searchParams: { acs_id: acsId }, responseType: 'none' }),
  );
}

// POST /public/singles (spec §7): result.outcome and result.reason.
export function registerSingle(
  api: ApiClient,
  body: SingleRegistrationBody,
  options: CallOptions = {},
): Promise<SingleRegistrationResult> {
  return api.post('/public/singles', { ...options, json: body, schema: singleRegistrationResult });
}
