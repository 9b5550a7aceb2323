import { describe, expect, it } from 'vitest';
import type { Permission } from '../../contract/api/permissions';
import { PERMISSIONS } from '../../contract/api/permissions';
import { homeScreen, menuItems, passesGuard, portalEntries, type Session, userTypeOf } from './access';

const USER: Permission[] = [
  'can_view_accreditations',
  'post_onboardings_auto',
  'get_users_me',
  'get_all_data_me',
  'show_reset_credentials_button_me',
  'delete_accounts_me',
];

function person(roles: readonly string[], enrolled = true, claims: Session['claims'] = null): Session {
  return {
    accessToken: 't',
    issuedAt: 0,
    expiresAt: 0,
    roles,
    email: '',
    userName: 'x',
    profile: null,
    userId: 'u',
    enrolled,
    acsId: null,
    userType: userTypeOf(roles),
    locale: null,
    claims,
    firstName: '',
    name: 'x',
  };
}

const gambling = { domain: 'gambling' };
const other = { domain: 'demo' };
const menu = (s: Session) => menuItems(s).map((i) => i.id);
const portal = (s: Session, settings = gambling) => portalEntries(s, settings).map((e) => e.id);

describe('home routing (spec §2)', () => {
  it('sends each kind of person to their home', () => {
    expect(homeScreen(person(USER, false))).toBe('Landing');
    expect(homeScreen(person(USER, true))).toBe('UserHome');
    expect(homeScreen(person([...USER, 'post_visits_me'], true))).toBe('MyVisits');
    expect(homeScreen(person([...USER, 'post_visits_me'], false))).toBe('Landing');
    expect(homeScreen(person(['post_visits_all'], false))).toBe('PortalManagement');
    expect(homeScreen(person([...PERMISSIONS], false))).toBe('PortalManagement');
  });

  it('a person with claims goes to MyAccreditations when enrolled, else Landing', () => {
    expect(homeScreen(person(['post_visits_all'], true, { given_name: 'Ane' }))).toBe('MyAccreditations');
    expect(homeScreen(person(USER, false, { given_name: 'Ane' }))).toBe('Landing');
  });
});

describe('guards (spec §2)', () => {
  it('lets nobody without a session past anything but public screens', () => {
    expect(passesGuard('public', null, gambling)).toBe(true);
    expect(passesGuard('authenticated', null, gambling)).toBe(false);
  });

  it('accreditations need enrolled plus the accreditation right', () => {
    expect(passesGuard('accreditations', person(USER, true), gambling)).toBe(true);
    expect(passesGuard('accreditations', person(USER, false), gambling)).toBe(false);
    expect(passesGuard('accreditations', person(['post_visits_all'], true), gambling)).toBe(false);
  });

  it('profile needs the profile right and enrolled; deletion needs a delete-accounts right', () => {
    expect(passesGuard('profile', person(USER, true), gambling)).toBe(true);
    expect(passesGuard('profile', person(USER, false), gambling)).toBe(false);
    expect(passesGuard('deleteAccount', person(['delete_accounts_one']), gambling)).toBe(true);
    expect(passesGuard('deleteAccount', person(['post_visits_all']), gambling)).toBe(false);
  });

  it('assistant-only screens exclude user managers and other domains', () => {
    const assistant = person(['post_onboardings_assisted']);
    expect(passesGuard('assistantNotUserManagerGambling', assistant, gambling)).toBe(true);
    expect(passesGuard('assistantNotUserManagerGambling', assistant, other)).toBe(false);
    const both = person(['post_onboardings_assisted', 'get_users_all']);
    expect(passesGuard('assistantNotUserManagerGambling', both, gambling)).toBe(false);
    expect(passesGuard('assistant', both, gambling)).toBe(true);
  });

  it('maps every other guard to its right', () => {
    expect(passesGuard('watchlist', person(['post_watchlists']), gambling)).toBe(true);
    // The result of an upload is the enforcement source an auditor follows from a refusal.
    expect(passesGuard('watchlistResult', person(['post_watchlists']), gambling)).toBe(true);
    expect(passesGuard('watchlistResult', person(['post_audit_accesses_all']), gambling)).toBe(true);
    expect(passesGuard('watchlistResult', person(['post_accesses_myscope']), gambling)).toBe(true);
    expect(passesGuard('watchlistResult', person(['post_visits_all']), gambling)).toBe(false);
    expect(passesGuard('watchlist', person(['post_audit_accesses_all']), gambling)).toBe(false);
    expect(passesGuard('audit', person(['post_accesses_myscope']), gambling)).toBe(true);
    expect(passesGuard('audit', person(['post_audit_accesses_all']), gambling)).toBe(true);
    expect(passesGuard('singleRegistration', person(['post_singles']), gambling)).toBe(true);
    expect(passesGuard('userManager', person(['get_users_all']), gambling)).toBe(true);
    expect(passesGuard('accounts', person(['get_accounts_all']), gambling)).toBe(true);
    expect(passesGuard('accounts', person(['can_view_complete_onboardings']), gambling)).toBe(true);
    // Visit screens: an enrolled visitor or a receptionist; an unenrolled visitor is not let in.
    expect(passesGuard('visits', person(['post_visits_me'], true), gambling)).toBe(true);
    expect(passesGuard('visits', person(['post_visits_me'], false), gambling)).toBe(false);
    expect(passesGuard('visits', person(['post_visits_all']), gambling)).toBe(true);
    expect(passesGuard('visits', person(USER), gambling)).toBe(false);
    expect(passesGuard('reception', person(['post_visits_all']), gambling)).toBe(true);
    expect(passesGuard('reception', person(['post_visits_me'], true), gambling)).toBe(false);
    for (const g of ['watchlist', 'audit', 'singleRegistration', 'userManager', 'accounts'] as const) {
      expect(passesGuard(g, person(USER), gambling), g).toBe(false);
    }
  });
});

describe('staff guards', () => {
  it('PortalManagement needs a staff right; a plain user or visitor cannot open it', () => {
    expect(passesGuard('staff', person(USER, true), gambling)).toBe(false);
    expect(passesGuard('staff', person([...USER, 'post_visits_me'], true), gambling)).toBe(false);
    expect(passesGuard('staff', person(['get_users_all'], false), gambling)).toBe(true);
    expect(passesGuard('staff', person(['get_accounts_all'], false), gambling)).toBe(true);
    expect(passesGuard('staff', person(['post_visits_all'], false), gambling)).toBe(true);
  });

  it('Administration needs a right over all users, and the portal entry leads there', () => {
    expect(passesGuard('administration', person(['get_users_all', 'post_singles'], false), gambling)).toBe(
      false,
    );
    expect(passesGuard('administration', person(['delete_users_all'], false), gambling)).toBe(true);
    expect(passesGuard('administration', person(['put_credentials_state_all'], false), gambling)).toBe(true);
    const admin = portalEntries(person([...PERMISSIONS], false), gambling);
    expect(admin.find((e) => e.id === 'allUsers')?.screen).toBe('Administration');
    expect(portal(person(['get_users_all'], false))).not.toContain('allUsers');
  });
});

describe('menu (spec §2)', () => {
  it('shows a self-enrolled user only their own items', () => {
    expect(menu(person(USER, true))).toEqual(['profile']);
    expect(menu(person(USER, false))).toEqual([]);
    expect(menu(person([...USER, 'post_visits_me'], true))).toEqual(['myVisits', 'newVisit', 'profile']);
  });

  it('shows staff the portal and the items of their rights', () => {
    expect(menu(person(['post_visits_all']))).toEqual(['portal', 'visitList']);
    expect(menu(person(['post_audit_accesses_all']))).toEqual(['portal', 'audit']);
    expect(menu(person(['get_users_all', 'post_singles']))).toEqual(['portal', 'users', 'register']);
    expect(menu(person(['get_accounts_all', 'can_view_complete_onboardings']))).toEqual([
      'portal',
      'accounts',
    ]);
    expect(menu(person([...PERMISSIONS], false))).toEqual([
      'portal',
      'users',
      'register',
      'visitList',
      'accounts',
      'audit',
      'watchlist',
    ]);
  });
});

describe('portal entries (spec §2)', () => {
  it('offers each entry only to whom its screen admits', () => {
    expect(portal(person(['post_onboardings_assisted']))).toEqual([
      'assisted',
      'activate',
      'checkProhibited',
      'cancelAccount',
    ]);
    expect(portal(person(['post_onboardings_assisted']), other)).toEqual(['assisted']);
    expect(portal(person(['post_visits_all']))).toEqual(['manageVisits']);
    expect(portal(person(['post_visits_me']))).toEqual([]);
    // "add users from photos" is the bulk import, for whom may register people (post_singles).
    const singles = portalEntries(person(['post_singles']), gambling);
    expect(singles.map((e) => [e.id, e.screen])).toEqual([['addFromPhotos', 'AddUsersFromPhotos']]);
    expect(portal(person([...PERMISSIONS]))).toEqual([
      'manageUsers',
      'manageVisits',
      'completeOnboardings',
      'addFromPhotos',
      'assisted',
      'audit',
      'allUsers',
      'addProhibited',
    ]);
  });
});
