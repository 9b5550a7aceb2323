// The screens the Lighthouse bench opens: every screen of the spec (src/domain/screens.ts) that a seeded role can
// open cold from its address, each with the role that opens it. Derived from the routes and the guards, so a new
// screen is benched without a list to keep.
import { homeScreen, passesGuard, userTypeOf } from '../src/auth/access';
import { pathFor, type ScreenName, screenNames, screens } from '../src/domain/screens';
import type { Session } from '../src/domain/session';

export interface BenchAccount {
  username: string;
  /** The account's permissions, as its access token carries them. */
  roles: readonly string[];
  enrolled: boolean;
}

export interface BenchScreen {
  screen: ScreenName;
  path: string;
  /** The seeded account it is opened as; null for Welcome, opened signed out. */
  username: string | null;
}

function sessionOf(account: BenchAccount): Session {
  return {
    accessToken: '',
    issuedAt: 0,
    expiresAt: 0,
    roles: account.roles,
    email: '',
    userName: account.username,
    profile: null,
    userId: account.username,
    enrolled: account.enrolled,
    acsId: null,
    userType: userTypeOf(account.roles),
    locale: null,
    claims: null,
    firstName: account.username,
    name: account.username,
  };
}

/**
 * Welcome signed out, then every screen of the app's layout (the onboarding steps are the enrolment machine's, which
 * names the step: they do not open from an address) whose path needs no parameter nor subject and whose guard a seeded account
 * passes in the tenant's domain; opened as the account whose home it is, else, of the accounts the guard admits, an
 * enrolled one first, then the one with the fewest permissions (then in seed order).
 */
/**
 * Screens that open on a subject named in their address's query (VisitDetail's `?data={visitId}`): without one the
 * portal sends the person on (VisitDetail to MyVisits), so their address alone is not the screen.
 */
const NEEDS_A_SUBJECT: ReadonlySet<string> = new Set(['VisitDetail']);

export function benchScreens(accounts: readonly BenchAccount[], domain: string): BenchScreen[] {
  const sessions = accounts.map((account) => ({ account, session: sessionOf(account) }));
  const list: BenchScreen[] = [{ screen: 'Welcome', path: '/', username: null }];
  for (const screen of screenNames) {
    const { guard, layout } = screens[screen];
    const path = pathFor(screen);
    if (guard === 'public' || layout !== 'app' || path === undefined || NEEDS_A_SUBJECT.has(screen)) continue;
    const admitted = sessions.filter(({ session }) => passesGuard(guard, session, { domain }));
    const chosen =
      admitted.find(({ session }) => homeScreen(session) === screen) ??
      // An enrolled person before staff (the visitor's NewVisit rather than reception's), then the narrowest
      // account (a staff screen as its own role rather than as admin).
      [...admitted].sort(
        (a, b) =>
          Number(b.account.enrolled) - Number(a.account.enrolled) ||
          a.account.roles.length - b.account.roles.length,
      )[0];
    if (chosen) list.push({ screen, path, username: chosen.account.username });
  }
  return list;
}

/** `--screens a,b`: those of the list, in its order; an unknown name is refused with the names there are. */
export function pickScreens(
  list: readonly BenchScreen[],
  names: readonly string[] | undefined,
): BenchScreen[] {
  if (!names) return [...list];
  const unknown = names.filter((name) => !list.some((s) => s.screen === name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown screen ${unknown.join(', ')} for --screens: the screens are ${list.map((s) => s.screen).join(', ')}`,
    );
  }
  return list.filter((s) => names.includes(s.screen));
}
