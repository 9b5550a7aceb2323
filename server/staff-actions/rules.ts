// Pure rules of the staff-action record: who counts as staff, which roles a token's permission strings amount to.
import type { Permission } from '../../contract/api/permissions';
import { ROLE_PERMISSIONS, type RoleName, SERVED_ROLES } from '../auth/roles';

/** The permission strings the people staff serve hold: a call made with only these is not a staff action. */
const SERVED_PERMISSIONS: ReadonlySet<string> = new Set(
  SERVED_ROLES.flatMap((role) => ROLE_PERMISSIONS[role]),
);

/** Whether a permission string is a staff one (no end user or visitor holds it). */
export function isStaffPermission(permission: string): boolean {
  return !SERVED_PERMISSIONS.has(permission);
}

/** Whether a caller with these permission strings acts as staff. */
export function actsAsStaff(permissions: readonly string[]): boolean {
  return permissions.some(isStaffPermission);
}

/**
 * The staff roles a token's permission strings amount to: each role whose every permission the token holds, the
 * served roles left out. An admin holds every permission and is named only as admin.
 */
export function staffRolesOf(permissions: readonly string[]): RoleName[] {
  const held = new Set(permissions);
  const holds = (role: RoleName) => ROLE_PERMISSIONS[role].every((p: Permission) => held.has(p));
  if (holds('admin')) return ['admin'];
  return (Object.keys(ROLE_PERMISSIONS) as RoleName[]).filter(
    (role) => role !== 'admin' && !SERVED_ROLES.includes(role) && holds(role),
  );
}

/** Matches counted exactly up to this many, then "at least" (as the access audit). */
export const STAFF_ACTIONS_COUNT_LIMIT = 10_000;

/** The page sizes the list accepts (the access audit's). */
export { AUDIT_PAGE_SIZES as STAFF_ACTIONS_PAGE_SIZES } from '../../contract/api/audit';
