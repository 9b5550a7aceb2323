import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { pathFor, type ScreenName } from '../../src/domain/screens';
import { openSignedIn, port } from './support';

// A painted screen's page links the files the screen loads at start (server/screen-preloads.ts, from the table of
// src/app/screen-modules.ts), so that the browser downloads them beside the entry script. The table mirrors the
// app's code (its routes, the preload of its first calls); these journeys hold them together, as the browser sees
// them: each screen is opened cold twice with its role's stored session, once with the links taken out of its page
// (what the app asks for by itself) and once as served. Linked files must all be files the app asks for (nothing
// downloaded for nothing), and every file the app asks for before the screen's first API call (the chain the call
// waits for) must be linked or named by index.html, but for the modules of calls (src/api/* and what they import, by
// the build's manifest): with its first call the app downloads every module of calls its loaded code has named (src/api/lazy.ts),
// a set that depends on what has run by then, and the call waits for its own module only, which the page links.

const SCREENS: readonly { screen: ScreenName; account: string }[] = [
  { screen: 'UserHome', account: 'user' },
  { screen: 'MyAccreditations', account: 'user' },
  { screen: 'UserProfile', account: 'user' },
  { screen: 'MyVisits', account: 'visitor' },
  { screen: 'NewVisit', account: 'visitor' },
  { screen: 'VisitList', account: 'receptionist' },
  { screen: 'PortalUsers', account: 'usermanager' },
  { screen: 'PortalAccounts', account: 'accountmanager' },
  { screen: 'AuditAccesses', account: 'auditor' },
  { screen: 'Administration', account: 'admin' },
];

const fileOf = (url: string) => new URL(url).pathname;

/**
 * The files of the modules of calls (src/api/*) and of what they import, by the manifest of the build the journeys
 * run against.
 */
const CALL_MODULE_FILES: ReadonlySet<string> = (() => {
  const manifest = JSON.parse(
    readFileSync(`${process.env.DIST_DIR ?? 'dist'}/.vite/manifest.json`, 'utf8'),
  ) as Record<string, { file: string; imports?: string[] }>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const entry = manifest[key];
    if (!entry || key === 'index.html' || files.has(`/${entry.file}`)) return;
    files.add(`/${entry.file}`);
    for (const imported of entry.imports ?? []) visit(imported);
  };
  for (const key of Object.keys(manifest)) if (key.startsWith('src/api/')) visit(key);
  return files;
})();
const LINK = /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+)">/g;

interface Load {
  /** The page's own modulepreload links and script, as served. */
  named: string[];
  /** Every script of /assets/ the page asked for (workers aside), in order. */
  scripts: string[];
  /** Those asked for before the first call to the API. */
  beforeFirstCall: string[];
}

async function open(
  page: Page,
  screen: ScreenName,
  account: string,
  withoutLinks: string[] = [],
): Promise<Load> {
  const scripts: string[] = [];
  let beforeFirstCall: string[] | undefined;
  page.on('request', (request) => {
    const path = fileOf(request.url());
    if (path.startsWith('/api/')) beforeFirstCall ??= [...scripts];
    else if (/^\/assets\/.+\.js$/.test(path) && !path.includes('.worker-')) scripts.push(path);
  });
  let served = '';
  await page.route(
    (url) => url.pathname === pathFor(screen),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      served = await response.text();
      const body = served.replace(LINK, (tag, href: string) => (withoutLinks.includes(href) ? '' : tag));
      await route.fulfill({ response, body });
    },
  );
  await openSignedIn(page, account, pathFor(screen) ?? '/');
  await expect(page.locator(`[data-screen="${screen}"]`)).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const named = [...served.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '');
  return { named, scripts, beforeFirstCall: beforeFirstCall ?? scripts };
}

test.describe("a painted screen's page links the files its screen loads at start", () => {
  for (const { screen, account } of SCREENS) {
    test(`${screen} (${account}): every linked file is one the app asks for, and its first call waits for none that is not linked`, async ({
      browser,
      request,
    }) => {
      // What index.html names itself (the entry and its own preloads), which every page has.
      const index = await (await request.get(`http://localhost:${port}/index.html`)).text();
      const indexFiles = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '');
      expect(indexFiles.length).toBeGreaterThan(0);

      const served = await browser.newContext();
      const asServed = await open(await served.newPage(), screen, account);
      await served.close();
      const links = asServed.named.filter((file) => !indexFiles.includes(file));
      expect(links.length).toBeGreaterThan(0);

      // The app alone: the same page without the links the screen's page adds.
      const bare = await browser.newContext();
      const byItself = await open(await bare.newPage(), screen, account, links);
      await bare.close();

      expect(links.filter((file) => !byItself.scripts.includes(file))).toEqual([]);
      expect(
        byItself.beforeFirstCall.filter(
          (file) => !asServed.named.includes(file) && !CALL_MODULE_FILES.has(file),
        ),
      ).toEqual([]);
    });
  }
});
