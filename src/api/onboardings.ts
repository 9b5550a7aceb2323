import type {
  ConfirmationResult,
  CreatedOnboarding,
  OnboardingStatus,
  RegistrationPayload,
  UserCode,
} from '../../contract/api/onboarding.ts';
import {
  confirmationResult,
  createdOnboarding,
  legalTermsAccepted,
  onboardingStatus,
  readAnswer,
  redeemedUserCode,
  userCode,
} from './answers.ts';
import type { ApiClient } from './client.ts';
import { isApiError } from './errors.ts';

// Spec §7 Onboarding: POST, GET, legal terms, DELETE, the confirmation; and the user codes that carry an
// onboarding from a computer to a phone.

export function createOnboarding(
  api: ApiClient,
  body: { mode: 'auto' | 'assisted'; user_id?: string | null; userData?: Record<string, unknown> | null },
): Promise<CreatedOnboarding> {
  return api.post('/internal/onboardings', { json: body, schema: createdOnboarding });
}

export async function acceptLegalTerms(api: ApiClient, onboardingId: string): Promise<void> {
  await api.put(`/internal/onboardings/${encodeURIComponent(onboardingId)}/legal_terms`, {
    schema: legalTermsAccepted,
  });
}

export async function deleteOnboarding(api: ApiClient, onboardingId: string): Promise<void> {
  await api.delete(`/internal/onboardings/${encodeURIComponent(onboardingId)}`, {
    responseType: 'none',
    silent: true,
  });
}

/** GET /internal/onboardings/{id}: what an onboarding is (the fields a continuing device needs). */
export function getOnboarding(api: ApiClient, onboardingId: string): Promise<CreatedOnboarding> {
  return api.get(`/internal/onboardings/${encodeURIComponent(onboardingId)}`, { schema: createdOnboarding });
}

/**
 * Where an onboarding stands. A computer following the phone asks every 3 s and says itself when it could not
 * (silent, the default); a phone continuing an onboarding asks once, and a failure is told as any other.
 */
export function getOnboardingStatus(
  api: ApiClient,
  onboardingId: string,
  { silent = true }: { silent?: boolean } = {},
): Promise<OnboardingStatus> {
  return api.get(`/internal/onboardings/${encodeURIComponent(onboardingId)}/status`, {
    schema: onboardingStatus,
    silent,
  });
}

/**
 * PUT the registration payload (spec §3). A refusal with a registration reason (409, or 503 for
 * enforcement_source_unavailable) is an answer, not a failure: it resolves with the result it carries.
 */
export async function confirmRegistration(
  api: ApiClient,
  onboardingId: string,
  portrayalId: string,
  payload: RegistrationPayload,
): Promise<ConfirmationResult> {
  const path = `/internal/onboardings/${encodeURIComponent(onboardingId)}/portrayals/${encodeURIComponent(portrayalId)}`;
  try {
    return await api.put(path, {
      json: payload,
      schema: confirmationResult,
      // The enrolment machine shows the reason on its own screen; no general notice for these.
      handlers: { 409: () => {}, 503: () => {} },
    });
  } catch (error) {
    if (isApiError(error) && (error.status === 409 || error.status === 503)) {
      const carried = await readAnswer('confirmationResult', error.body);
      if (carried?.result.reason) return carried;
    }
    throw error;
  }
}

export function generateUserCode(api: ApiClient, onboardingId: string | null): Promise<UserCode> {
  return api.post('/user-code/generate', { json: { onboarding_id: onboardingId }, schema: userCode });
}

export function redeemUserCode(api: ApiClient, code: string) {
  return api.post('/user-code/redeem', { json: { code }, schema: redeemedUserCode, silent: true });
}
