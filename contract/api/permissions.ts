// The permission strings of spec §6, exactly as they travel in the access token's `roles` claim. The
// server's role table (server/auth/roles.ts) and the portal's guards and menus both use these names.
export const PERMISSIONS = [
  'can_view_accreditations',
  'can_view_complete_onboardings',
  'post_onboardings_auto',
  'post_onboardings_assisted',
  'get_users_me',
  'get_all_data_me',
  'show_reset_credentials_button_me',
  'post_credentials_location',
  'post_singles',
  'delete_accounts_one',
  'delete_accounts_me',
  'delete_users_all',
  'put_credentials_state_one',
  'put_credentials_state_all',
  'get_users_all',
  'get_accounts_all',
  'post_visits_me',
  'post_visits_all',
  'post_audit_accesses_all',
  'post_accesses_myscope',
  'post_external_enforcements',
  'post_watchlists',
  'post_time_user',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
