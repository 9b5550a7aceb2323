import { type } from 'arktype';
import { emailAddress } from './onboarding';
import { localeCode } from './settings';
import { requiredText, TEXT_LIMITS, text } from './text';

// IAM account (spec §3): id, username, firstName, lastName, email, createdTimestamp, onboarding_status.
export const iamAccount = type({
  id: 'string',
  username: 'string',
  firstName: 'string | null',
  lastName: 'string | null',
  email: 'string | null',
  /** Milliseconds since the epoch (Keycloak's representation). */
  createdTimestamp: 'number',
  onboarding_status: 'string',
});
export type IamAccount = typeof iamAccount.infer;

// GET /public/accounts (spec §7): one page of accounts and the total they come from.
export const iamAccountPage = type({
  items: iamAccount.array(),
  totalItems: 'number.integer >= 0',
  pageIndex: 'number.integer >= 0',
  pageSize: 'number.integer > 0',
});
export type IamAccountPage = typeof iamAccountPage.infer;

// PUT /internal/accounts/{userId}/locale: the person's language (spec §1: es, en, eu).
export const localeBody = type({ locale: localeCode });

// POST /internal/accounts (spec §7): a new account named by its email; names are optional. Answers { user_id }.
export const newAccountBody = type({
  email: emailAddress,
  'username?': requiredText(TEXT_LIMITS.name),
  'first_name?': text(TEXT_LIMITS.name),
  'last_name?': text(TEXT_LIMITS.name),
});
export type NewAccountBody = typeof newAccountBody.infer;
export const newAccountResult = type({ user_id: 'string' });
export type NewAccountResult = typeof newAccountResult.infer;

// DELETE /internal/accounts/{id} (spec §7, §8 Account cancellation): the field the tenant's askFieldForDelete names.
export const deleteAccountBody = type({ 'id_number?': text(32) });
export type DeleteAccountBody = typeof deleteAccountBody.infer;

// GET /internal/accounts/{id}/profile: what UserProfile shows (spec §3 User, read from the user record).
export const accountProfile = type({
  account_id: 'string',
  username: 'string',
  email: 'string | null',
  locale: 'string | null',
  user: type({
    user_id: 'string',
    first_name: 'string',
    last_name: 'string',
    email: 'string | null',
    acs_id: 'string',
    id_number: 'string | null',
    nationality: 'string | null',
    birth_date: 'string',
    expiry_date: 'string | null',
    document_number: 'string',
    document_type: 'string',
    expedition_country: 'string | null',
    onboarding_date: 'string',
  }).or('null'),
});
export type AccountProfile = typeof accountProfile.infer;

// POST /public/credential-resets: a person who lost access asks for a credential reset by email.
export const credentialResetRequest = type({
  email: emailAddress,
  'locale?': "'es' | 'en' | 'eu'",
});
export type CredentialResetRequest = typeof credentialResetRequest.infer;

// POST /internal/credential-resets/redeem: the token of the mailed link; answers the new QR credential.
export const credentialResetRedeem = type({ token: /^[\w-]{20,100}$/ });
export const credentialResetResult = type({
  user_id: 'string',
  sid: 'string',
  starts_at: 'string',
  ends_at: 'string',
  revoked: 'number.integer >= 0',
});
export type CredentialResetResult = typeof credentialResetResult.infer;
