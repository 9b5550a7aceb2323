// Who may see what: the session values of spec §3, the derived flags of spec §6, the guards, menu items,
// portal entries and home routing of spec §2. Pure functions of the session and the tenant settings, so
// the guards, the header and the session machine's home routing read the same rules.
import type { AccessTokenClaims } from '../../contract/api/access-token';
import type { Permission } from '../../contract/api/permissions';
import type { TenantSettings } from '../../contract/api/settings';
import type { Guard, ScreenName } from '../domain/screens';
import type { Session, UserType } from '../domain/session';

export type { Session, UserType };

export function hasRole(session: Pick<Session, 'roles'>, permission: Permission): boolean {
  return session.roles.includes(permission);
}

function hasAny(session: Pick<Session, 'roles'>, ...permissions: Permission[]): boolean {
  return permissions.some((p) => session.roles.includes(p));
}

// Rights that only staff hold: someone with any of them is staff, whatever personal rights they also have
// (an admin holds every permission string, post_visits_me included).
export const STAFF_PERMISSIONS: readonly Permission[] = [
  'post_onboardings_assisted',
  'get_users_all',
  'get_accounts_all',
  'post_visits_all',
  'post_audit_accesses_all',
  'post_accesses_myscope',
  'post_watchlists',
  'post_singles',
  'can_view_complete_onboardings',
];

export function userTypeOf(roles: readonly string[]): UserType {
  if (STAFF_PERMISSIONS.some((p) => roles.includes(p))) return 'staff';
  if (roles.includes('post_visits_me')) return 'visitor';
  if (roles.includes('post_onboardings_auto')) return 'user';
  return 'staff';
}

export function sessionFromClaims(claims: AccessTokenClaims, accessToken: string): Session {
  return {
    accessToken,
    issuedAt: claims.iat ?? claims.exp - 300,
    expiresAt: claims.exp,
    roles: claims.roles,
    email: claims.email ?? '',
    userName: claims.preferred_username ?? claims.sub,
    profile: claims.location ?? null,
    userId: claims.sub,
    enrolled: claims.enrolled,
    acsId: claims.acs_id ?? null,
    userType: userTypeOf(claims.roles),
    locale: claims.locale ?? null,
    claims: claims.claims ?? null,
    firstName: claims.name?.split(' ')[0] ?? claims.preferred_username ?? '',
    name: claims.name?.trim() || claims.preferred_username || '',
  };
}

/** Derived flags (spec §6). */
export const flags = (session: Pick<Session, 'roles'>) => ({
  canDeleteAccounts: hasAny(session, 'delete_accounts_me', 'delete_accounts_one'),
  canUploadWatchlist: hasRole(session, 'post_watchlists'),
  isAssistant: hasRole(session, 'post_onboardings_assisted'),
  isUserManager: hasRole(session, 'get_users_all'),
  isAccountManager: hasRole(session, 'get_accounts_all'),
  isAuditor: hasAny(session, 'post_audit_accesses_all', 'post_accesses_myscope'),
  isReceptionist: hasRole(session, 'post_visits_all'),
  isVisitor: hasRole(session, 'post_visits_me'),
});

/** Register mode (spec §4): assisted when the person holds the assisted-onboarding right, otherwise auto. */
export function registerMode(session: Pick<Session, 'roles'>): 'assisted' | 'auto' {
  return hasRole(session, 'post_onboardings_assisted') ? 'assisted' : 'auto';
}

/**
 * "Auto mode" for the menu (spec §2: the portal item shows when not in auto mode): a person who enrols
 * themselves. Staff without the assisted-onboarding right (a receptionist, an auditor) are not enrolling
 * anyone, so they are not in auto mode either; otherwise their home, PortalManagement, had no menu entry.
 */
function isAutoMode(session: Pick<Session, 'roles'>): boolean {
  return hasRole(session, 'post_onboardings_auto') && registerMode(session) === 'auto';
}

const inGamblingDomain = (settings: Pick<TenantSettings, 'domain'>) => settings.domain === 'gambling';

/** Whether the session may enter a screen with this guard (spec §2 Guards). */
export function passesGuard(
  guard: Guard,
  session: Session | null,
  settings: Pick<TenantSettings, 'domain'>,
): boolean {
  if (guard === 'public') return true;
  if (!session) return false;
  const f = flags(session);
  switch (guard) {
    case 'authenticated':
    case 'onboarding':
      return true;
    case 'accreditations':
      return session.enrolled && hasRole(session, 'can_view_accreditations');
    case 'watchlist':
      return f.canUploadWatchlist;
    // UploadWatchlistResult: the uploader's result, and the list version an auditor follows from a refusal.
    case 'watchlistResult':
      return f.canUploadWatchlist || f.isAuditor;
    case 'audit':
      return f.isAuditor;
    case 'singleRegistration':
      return hasRole(session, 'post_singles');
    case 'userManager':
      return f.isUserManager;
    // IAM accounts, where onboardings are completed: account managers (spec §2 "account screens need account
    // manager") and whoever holds the right the menu item is shown for (spec §2: "right to view complete
    // onboardings", which assistants hold: spec §6 "Assistants complete onboardings").
    case 'accounts':
      return f.isAccountManager || hasRole(session, 'can_view_complete_onboardings');
    case 'assistant':
      return f.isAssistant;
    case 'assistantNotUserManagerGambling':
      return f.isAssistant && !f.isUserManager && inGamblingDomain(settings);
    case 'profile':
      return hasRole(session, 'get_users_me') && session.enrolled;
    case 'deleteAccount':
      return f.canDeleteAccounts;
    // Visit screens (spec §2): an enrolled visitor (their own) or a receptionist (all of them).
    case 'visits':
      return (f.isVisitor && session.enrolled) || f.isReceptionist;
    // VisitList and ProcessVisit are reception's (spec §2: VisitList (receptionist); ProcessVisit).
    case 'reception':
      return f.isReceptionist;
    // PortalManagement: a staff right, i.e. at least one entry of the portal menu.
    case 'staff':
      return STAFF_RIGHTS.some((right) => hasRole(session, right));
    // Administration: who may act on every user at once (spec §6: admins).
    case 'administration':
      return hasRole(session, 'put_credentials_state_all') || hasRole(session, 'delete_users_all');
  }
}

export interface MenuItem {
  id: string;
  screen: ScreenName;
  messageId: string;
}

/** The header menu (spec §2 "Menu items and who sees them"), in the spec's order. */
export function menuItems(session: Session | null): MenuItem[] {
  if (!session) return [];
  const f = flags(session);
  const items: (MenuItem | false)[] = [
    !isAutoMode(session) && { id: 'portal', screen: 'PortalManagement', messageId: 'menu.portal' },
    f.isUserManager && { id: 'users', screen: 'PortalUsers', messageId: 'menu.users' },
    hasRole(session, 'post_singles') && {
      id: 'register',
      screen: 'SingleRegistration',
      messageId: 'menu.register',
    },
    f.isVisitor && session.enrolled && { id: 'myVisits', screen: 'MyVisits', messageId: 'menu.myVisits' },
    f.isVisitor && session.enrolled && { id: 'newVisit', screen: 'NewVisit', messageId: 'menu.newVisit' },
    f.isReceptionist && { id: 'visitList', screen: 'VisitList', messageId: 'menu.visitList' },
    hasRole(session, 'can_view_complete_onboardings') && {
      id: 'accounts',
      screen: 'PortalAccounts',
      messageId: 'menu.accounts',
    },
    f.isAuditor && { id: 'audit', screen: 'AuditAccesses', messageId: 'menu.audit' },
    hasRole(session, 'get_users_me') &&
      session.enrolled && { id: 'profile', screen: 'UserProfile', messageId: 'menu.profile' },
    f.canUploadWatchlist && { id: 'watchlist', screen: 'UploadWatchlist', messageId: 'menu.watchlist' },
  ];
  return items.filter((item): item is MenuItem => item !== false);
}

export interface PortalEntry extends MenuItem {
  guard: Guard;
}

/**
 * The portal menu (spec §2 "The portal menu offers"), each entry shown only to whom its screen's guard
 * admits. 'manage or cancel all users' is the user list (admins find the bulk actions there).
 */
/** The rights that open the staff portal (spec §6): any of them shows at least one portal entry. */
const STAFF_RIGHTS = [
  'get_users_all',
  'get_accounts_all',
  'can_view_complete_onboardings',
  'post_singles',
  'post_onboardings_assisted',
  'post_visits_all',
  'post_audit_accesses_all',
  'post_accesses_myscope',
  'post_watchlists',
  'put_credentials_state_all',
  'delete_users_all',
] as const;

export function portalEntries(
  session: Session | null,
  settings: Pick<TenantSettings, 'domain'>,
): PortalEntry[] {
  const entries: PortalEntry[] = [
    { id: 'manageUsers', screen: 'PortalUsers', guard: 'userManager', messageId: 'portal.manageUsers' },
    { id: 'manageVisits', screen: 'VisitList', guard: 'visits', messageId: 'portal.manageVisits' },
    {
      id: 'completeOnboardings',
      screen: 'PortalAccounts',
      guard: 'accounts',
      messageId: 'portal.completeOnboardings',
    },
    {
      id: 'addFromPhotos',
      screen: 'AddUsersFromPhotos',
      guard: 'singleRegistration',
      messageId: 'portal.addFromPhotos',
    },
    { id: 'assisted', screen: 'Landing', guard: 'assistant', messageId: 'portal.assisted' },
    { id: 'audit', screen: 'AuditAccesses', guard: 'audit', messageId: 'portal.audit' },
    { id: 'allUsers', screen: 'Administration', guard: 'administration', messageId: 'portal.allUsers' },
    {
      id: 'activate',
      screen: 'ActivateUsers',
      guard: 'assistantNotUserManagerGambling',
      messageId: 'portal.activate',
    },
    {
      id: 'checkProhibited',
      screen: 'CheckInterdictions',
      guard: 'assistantNotUserManagerGambling',
      messageId: 'portal.checkProhibited',
    },
    { id: 'addProhibited', screen: 'UploadWatchlist', guard: 'watchlist', messageId: 'portal.addProhibited' },
    {
      id: 'cancelAccount',
      screen: 'AssistantAccountCancellation',
      guard: 'assistantNotUserManagerGambling',
      messageId: 'portal.cancelAccount',
    },
  ];
  return entries.filter((entry) => {
    if (!session || !passesGuard(entry.guard, session, settings)) return false;
    // 'manage all users' is for those who may act on all of them (spec §1: admins).
    // 'manage visits' is the receptionist's list, not a visitor's own.
    if (entry.id === 'manageVisits') return flags(session).isReceptionist;
    return true;
  });
}

/**
 * Home routing after login (spec §2): a person with claims goes to MyAccreditations if enrolled, else
 * Landing; an unenrolled user starts onboarding; an enrolled visitor goes to MyVisits, an enrolled user
 * to UserHome, anyone else to PortalManagement.
 */
export function homeScreen(session: Session): ScreenName {
  if (session.claims) return session.enrolled ? 'MyAccreditations' : 'Landing';
  if (session.userType !== 'staff' && !session.enrolled) return 'Landing';
  if (session.enrolled && session.userType === 'visitor') return 'MyVisits';
  if (session.enrolled && session.userType === 'user') return 'UserHome';
  return 'PortalManagement';
}
