// The rules of credentials (spec §1, §3, §9): how long a QR lives, when a credential is valid, what its QR
// encodes, and which rights reach a person's own credentials or anyone's.
import type { Permission } from '../../contract/api/permissions';

/** Spec §1, §9: a QR credential lasts 15 days; setting it active again starts a new 15-day window. */
export const QR_VALID_MS = 15 * 24 * 60 * 60 * 1000;

/** Who may do what: the person's own rights, and the staff rights that reach anyone of the tenant. */
export interface Access {
  own: readonly Permission[];
  staff: readonly Permission[];
}
export const READ: Access = { own: ['can_view_accreditations', 'get_users_me'], staff: ['get_users_all'] };
export const DOOR: Access = {
  own: READ.own,
  staff: ['get_users_all', 'put_credentials_state_one', 'post_audit_accesses_all', 'post_accesses_myscope'],
};
export const CHANGE_STATE: Access = {
  own: ['can_view_accreditations'],
  staff: ['put_credentials_state_one'],
};
export const ACTIVATE: Access = {
  own: [],
  staff: ['put_credentials_state_one', 'put_credentials_state_all'],
};
export const REQUEST_RIGHT: Access = {
  own: ['can_view_accreditations'],
  staff: ['put_credentials_state_one', 'post_singles'],
};
export const ADD_LOCATION: Access = { own: [], staff: ['post_credentials_location'] };
export const ACS_ID_CHECK: readonly Permission[] = [
  'get_users_all',
  'post_singles',
  'post_onboardings_assisted',
];

/** Whether the caller reaches a user record with `access`: staff, or its owner with an own right. */
export function mayReach(
  claims: { roles: readonly string[]; sub: string },
  accountId: string | null,
  access: Access,
): boolean {
  const staff = access.staff.some((permission) => claims.roles.includes(permission));
  const owner =
    accountId !== null &&
    accountId === claims.sub &&
    access.own.some((permission) => claims.roles.includes(permission));
  return staff || owner;
}

/** What the QR image encodes: the tenant, the person's access-control id and the credential's sid. */
export function credentialPayload(tenant: string, acsId: string, sid: string): string {
  return `acs:${tenant}:${encodeURIComponent(acsId)}:${sid}`;
}

interface ValidityFields {
  credential_type: 'qr' | 'embedding' | 'enrolment_proof';
  state: 'active' | 'revoked';
  ends_at: Date | null;
}

/** A QR accreditation is valid while active and its end is in the future; the others while active (spec §3). */
export function isValidCredential(row: ValidityFields, now: Date) {
  if (row.state !== 'active') return false;
  if (row.ends_at === null) return row.credential_type !== 'qr';
  return row.ends_at.getTime() > now.getTime();
}

/** Where a QR credential set active (again) at `at` ends; others keep theirs. Revoking ends it now. */
export function stateWindow(
  row: { credential_type: string; starts_at: Date; ends_at: Date | null },
  state: 'active' | 'revoked',
  at: Date,
): { startsAt: Date; endsAt: Date | null } {
  const qr = row.credential_type === 'qr';
  return {
    startsAt: state === 'active' && qr ? at : row.starts_at,
    endsAt: qr ? (state === 'active' ? new Date(at.getTime() + QR_VALID_MS) : at) : row.ends_at,
  };
}
