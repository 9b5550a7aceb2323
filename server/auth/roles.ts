// The one role → permission-string table of the development identity provider (spec §6). Accounts hold role
// names; access tokens carry the permission strings in `roles`. docs/operations.md documents this table.
import { PERMISSIONS, type Permission } from '../../contract/api/permissions';

export const ROLE_PERMISSIONS = {
  /** Enrols themselves (auto mode), owns their profile, accreditations and account deletion. */
  user: [
    'post_onboardings_auto',
    'get_users_me',
    'get_all_data_me',
    'show_reset_credentials_button_me',
    'can_view_accreditations',
    'delete_accounts_me',
  ],
  /** A user who also requests visits. */
  visitor: [
    'post_onboardings_auto',
    'get_users_me',
    'get_all_data_me',
    'show_reset_credentials_button_me',
    'can_view_accreditations',
    'delete_accounts_me',
    'post_visits_me',
  ],
  /** Assisted registration, completing onboardings, activation, interdiction checks, cancellations, audit. */
  assistant: [
    'post_onboardings_assisted',
    'can_view_complete_onboardings',
    'put_credentials_state_one',
    'post_credentials_location',
    'post_external_enforcements',
    'delete_accounts_one',
    'post_accesses_myscope',
  ],
  receptionist: ['post_visits_all'],
  auditor: ['post_audit_accesses_all'],
  usermanager: ['get_users_all', 'post_singles', 'put_credentials_state_one'],
  accountmanager: ['get_accounts_all', 'can_view_complete_onboardings'],
  /** Every permission string, including watchlist upload and deleting all users. */
  admin: [...PERMISSIONS],
} as const satisfies Record<string, readonly Permission[]>;

export type RoleName = keyof typeof ROLE_PERMISSIONS;

/** The people staff serve: end users and visitors. An account with any other role is a staff account. */
export const SERVED_ROLES: readonly RoleName[] = ['user', 'visitor'];

/**
 * Staff cancel the accounts of the people they serve; a staff account only an admin may cancel, so that the
 * holder of delete_accounts_one cannot sign out and wipe the administrators and auditors who oversee them.
 */
export function isStaffAccount(roles: readonly string[]): boolean {
  return roles.some((role) => !(SERVED_ROLES as readonly string[]).includes(role));
}

export function isRoleName(value: string): value is RoleName {
  return Object.hasOwn(ROLE_PERMISSIONS, value);
}

/** The permission strings of a set of role names, each once, in the order of spec §6. */
export function permissionsOf(roles: readonly string[]): Permission[] {
  const granted = new Set<Permission>();
  for (const role of roles) if (isRoleName(role)) for (const p of ROLE_PERMISSIONS[role]) granted.add(p);
  return PERMISSIONS.filter((p) => granted.has(p));
}
