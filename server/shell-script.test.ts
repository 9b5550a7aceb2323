// The inline script's decision (server/shell-script.ts), run as the browser runs it: in a context of its own with
// a page holding the server's paint and the browser's localStorage, for every kind of visitor of Welcome and
// Landing. The paint stays only where the app would draw the same screen.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { PRELOADS_TEMPLATE_ID } from '../contract/tenant/boot';
import { unsignedJwt } from '../tests/support/unsigned-jwt';
import { LINKS_TASK_MS, SHELL_SCRIPT } from './shell-script';

type Screen = 'Welcome' | 'Landing' | 'NewVisit' | 'UserHome';

const USER_KEY = 'oidc.user:http://localhost:8080/auth/realms/gambling:portal';

function storedUser(claims: Record<string, unknown>): Record<string, string> {
  return { [USER_KEY]: JSON.stringify({ access_token: unsignedJwt(claims), token_type: 'Bearer' }) };
}

const newcomer = {
  iss: 'http://localhost:8080/auth/realms/gambling',
  sub: 'u-1',
  exp: 2_000_000_000,
  tenant: 'gambling',
  // A self-enrolling person as seeded: their own rights, none of staff's.
  roles: ['post_onboardings_auto', 'get_users_me', 'post_visits_me', 'delete_accounts_me'],
  enrolled: false,
  name: 'Íñigo Núñez',
};

/**
 * Runs the script on a page painted for `screen` in Spanish (not for holders of `notFor`, as the server writes it);
 * true when the paint is still there after it.
 */
/** What the last run of paintStays wrote to document.cookie, if anything. */
let cookieWritten: string | undefined;

function paintStays(
  screen: Screen,
  stored: Record<string, string>,
  notFor?: string,
  page: { withData?: boolean; cookie?: string } = {},
): boolean {
  let removed = false;
  const root = { hidden: true };
  const shell = {
    hidden: page.withData === true,
    hasAttribute: (name: string) => name === 'data-with-data' && page.withData === true,
    getAttribute: (name: string) =>
      ({ 'data-paint': screen, 'data-locale': 'es', 'data-not-for': notFor })[name] ?? null,
    remove: () => {
      removed = true;
    },
  };
  const keys = Object.keys(stored);
  const localStorage = {
    get length() {
      return keys.length;
    },
    key: (i: number) => keys[i] ?? null,
    getItem: (key: string) => stored[key] ?? null,
  };
  const document = {
    getElementById: (id: string) => ({ shell, root })[id] ?? null,
    cookie: page.cookie ?? '',
  };
  cookieWritten = undefined;
  Object.defineProperty(document, 'cookie', {
    get: () => page.cookie ?? '',
    set: (value: string) => {
      cookieWritten = value;
    },
  });
  runInNewContext(SHELL_SCRIPT, {
    document,
    localStorage,
    atob: (text: string) => Buffer.from(text, 'base64').toString('latin1'),
  });
  expect(root.hidden).toBe(!removed);
  // What stays is shown (a paint with someone's data comes hidden until the script has looked).
  if (!removed) expect(shell.hidden).toBe(false);
  return !removed;
}

describe("the first paint's inline script", () => {
  it("links the screen's files once the paint is on screen, not before, a few milliseconds' worth per task", () => {
    const frames: (() => void)[] = [];
    const timers: (() => void)[] = [];
    const appended: string[] = [];
    // The template's content as the browser has it: appending a node moves it out.
    const links = ['sheet', 'entry', 'screen', 'texts', 'call', 'answers', 'parts', 'dates', 'client'];
    const content = {
      get firstChild() {
        return links[0] ?? null;
      },
    };
    const nodes: Record<string, unknown> = {
      shell: { getAttribute: () => null, remove: () => undefined },
      root: { hidden: true },
      [PRELOADS_TEMPLATE_ID]: { content },
    };
    // Each request the browser sends costs the page's main thread 3 ms here.
    let now = 0;
    const move = (node: string) => {
      links.splice(links.indexOf(node), 1);
      appended.push(node);
      now += 3;
    };
    runInNewContext(SHELL_SCRIPT, {
      document: { getElementById: (id: string) => nodes[id] ?? null, head: { appendChild: move } },
      localStorage: { length: 0, key: () => null, getItem: () => null },
      atob: (text: string) => Buffer.from(text, 'base64').toString('latin1'),
      requestAnimationFrame: (f: () => void) => frames.push(f),
      setTimeout: (f: () => void) => timers.push(f),
      Date: { now: () => now },
    });
    // Nothing during the parse, nor in the frame that paints: in the tasks after it, in the template's order.
    expect(appended).toEqual([]);
    for (const frame of frames) frame();
    expect(appended).toEqual([]);
    const perTask: number[] = [];
    while (timers.length > 0) {
      const before = appended.length;
      timers.shift()?.();
      perTask.push(appended.length - before);
    }
    expect(appended).toEqual([
      'sheet',
      'entry',
      'screen',
      'texts',
      'call',
      'answers',
      'parts',
      'dates',
      'client',
    ]);
    // As many as fit in the task's time (the one that passes it included), then the next task.
    const perFullTask = Math.ceil(LINKS_TASK_MS / 3);
    expect(perTask.slice(0, -1).every((n) => n === perFullTask)).toBe(true);
    expect(perTask.length).toBe(Math.ceil(9 / perFullTask));
  });

  it('goes on with what is left when the app took the sheet out of the template first', () => {
    const timers: (() => void)[] = [];
    const appended: string[] = [];
    const links = ['sheet', 'entry', 'screen'];
    const content = {
      get firstChild() {
        return links[0] ?? null;
      },
    };
    runInNewContext(SHELL_SCRIPT, {
      document: {
        getElementById: (id: string) =>
          ({
            shell: { getAttribute: () => null, remove: () => undefined },
            root: {},
            [PRELOADS_TEMPLATE_ID]: { content },
          })[id] ?? null,
        head: {
          appendChild: (node: string) => {
            links.splice(links.indexOf(node), 1);
            appended.push(node);
          },
        },
      },
      localStorage: { length: 0, key: () => null, getItem: () => null },
      atob: (text: string) => Buffer.from(text, 'base64').toString('latin1'),
      requestAnimationFrame: (f: () => void) => f(),
      setTimeout: (f: () => void) => timers.push(f),
    });
    // The app's first render linked the sheet itself (src/app/full-sheet.ts) before the script's task came.
    links.shift();
    while (timers.length > 0) timers.shift()?.();
    expect(appended).toEqual(['entry', 'screen']);
  });

  it('keeps Welcome for a visitor with nothing stored, drops it for anyone signed in', () => {
    expect(paintStays('Welcome', {})).toBe(true);
    expect(paintStays('Welcome', storedUser(newcomer))).toBe(false);
  });

  it('drops either paint when another language was chosen in this browser, keeps it for the same one', () => {
    expect(paintStays('Welcome', { 'portal.locale': 'eu' })).toBe(false);
    expect(paintStays('Welcome', { 'portal.locale': 'es' })).toBe(true);
    expect(paintStays('Landing', { ...storedUser(newcomer), 'portal.locale': 'en' })).toBe(false);
  });

  it('keeps Landing for a person who enrols themselves and is not enrolled yet', () => {
    expect(paintStays('Landing', storedUser(newcomer))).toBe(true);
    // The brokered identity's claims kept beside the user are not a user.
    expect(paintStays('Landing', { ...storedUser(newcomer), [`${USER_KEY}:broker`]: '{}' })).toBe(true);
  });

  it('drops Landing for nobody signed in, and for an enrolment kept to resume', () => {
    expect(paintStays('Landing', {})).toBe(false);
    expect(paintStays('Landing', { ...storedUser(newcomer), 'portal.enrolment:u-1': '{}' })).toBe(false);
  });

  it('drops Landing for an assistant, whose Landing has the assisted texts and the portal in the menu', () => {
    const assistant = {
      ...newcomer,
      roles: ['post_onboardings_assisted', 'can_view_complete_onboardings', 'post_accesses_myscope'],
    };
    expect(paintStays('Landing', storedUser(assistant))).toBe(false);
    // Even an assistant who also holds the self-enrolment right.
    const both = { ...assistant, roles: [...assistant.roles, 'post_onboardings_auto'] };
    expect(paintStays('Landing', storedUser(both))).toBe(false);
  });

  it('drops Landing for staff whose menu has more entries, and for an enrolled person', () => {
    for (const right of ['get_users_all', 'post_visits_all', 'post_watchlists', 'post_singles']) {
      expect(paintStays('Landing', storedUser({ ...newcomer, roles: [...newcomer.roles, right] }))).toBe(
        false,
      );
    }
    expect(paintStays('Landing', storedUser({ ...newcomer, enrolled: true }))).toBe(false);
    expect(paintStays('Landing', storedUser({ ...newcomer, roles: ['get_users_me'] }))).toBe(false);
  });

  it('drops Landing on any doubt: a token it cannot read, claims without roles or enrolled', () => {
    expect(paintStays('Landing', { [USER_KEY]: 'not json' })).toBe(false);
    expect(paintStays('Landing', { [USER_KEY]: JSON.stringify({ access_token: 'opaque' }) })).toBe(false);
    expect(paintStays('Landing', { [USER_KEY]: JSON.stringify({}) })).toBe(false);
    const { roles: _roles, ...withoutRoles } = newcomer;
    expect(paintStays('Landing', storedUser(withoutRoles))).toBe(false);
    const { enrolled: _enrolled, ...withoutEnrolled } = newcomer;
    expect(paintStays('Landing', storedUser(withoutEnrolled))).toBe(false);
  });

  it("keeps a screen painted for its main audience for them, drops it for a session holding another's right", () => {
    const visitor = { ...newcomer, enrolled: true, roles: ['post_visits_me', 'get_users_me'] };
    const reception = { ...visitor, roles: [...visitor.roles, 'post_visits_all'] };
    expect(paintStays('NewVisit', storedUser(visitor), 'post_visits_all')).toBe(true);
    expect(paintStays('NewVisit', storedUser(reception), 'post_visits_all')).toBe(false);
    expect(paintStays('NewVisit', storedUser(reception), 'get_users_all,post_visits_all')).toBe(false);
    // Without such rights on the page, the same session keeps the paint.
    expect(paintStays('NewVisit', storedUser(reception))).toBe(true);
    expect(paintStays('NewVisit', { [USER_KEY]: 'not json' }, 'post_visits_all')).toBe(false);
  });

  it('is ES5: no arrow functions, let/const, template strings or classes', () => {
    expect(SHELL_SCRIPT).not.toMatch(/=>|\blet\b|\bconst\b|`|\bclass\b/);
  });

  it("keeps a paint with someone's data only for the session it was drawn for, and forgets a cookie left behind", () => {
    const stored = storedUser({ ...newcomer, enrolled: true });
    const held = JSON.parse(stored[USER_KEY] ?? '{}').access_token as string;
    const withData = (cookie: string, user = stored) =>
      paintStays('UserHome', user, undefined, { withData: true, cookie });
    expect(withData(`other=1; portal_paint=${held}`)).toBe(true);
    expect(cookieWritten).toBeUndefined();
    // Another token (another person signed in since, a renewal the cookie missed), none, or no session stored.
    expect(withData(`portal_paint=${unsignedJwt({ ...newcomer, sub: 'u-2' })}`)).toBe(false);
    expect(cookieWritten).toMatch(/^portal_paint=; Path=\/; Max-Age=0/);
    expect(withData('')).toBe(false);
    expect(withData(`portal_paint=${held}`, {})).toBe(false);
    expect(cookieWritten).toMatch(/Max-Age=0/);
    // The generic paint of the same screen has nothing of anyone's: the cookie does not matter to it.
    expect(paintStays('UserHome', stored, undefined, { cookie: '' })).toBe(true);
    expect(cookieWritten).toBeUndefined();
  });
});
