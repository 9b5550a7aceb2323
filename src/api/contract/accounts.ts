import { type } from 'arktype';
import { localeCode } from './settings';

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
