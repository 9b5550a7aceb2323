// The request chain of signed-in screens, figures that do not move with the machine's load: each screen opened cold
// (empty HTTP cache) on an emulated Pixel 7 with its role's stored session, against the built portal (`npm start`'s
// server, a throwaway data folder). For each: the JS requested before the first contentful paint (files and bytes
// transferred, headers included, from Resource Timing), whether the screen's first API call started before that
// paint, when the screen itself was drawn and how many of its API calls in series started after that, and the API
// calls one after another. `npx tsx bench/request-chain.ts [port] [Screen,Screen]`; the port
// defaults to 8640. See docs/performance.md, "Signed-in screens: where the time goes".
import { chromium, devices } from '@playwright/test';
import { browserPath } from '../tests/support/chromium.mjs';
import { lighthouseScreens, startPortal } from './lighthouse';

const DEFAULT_SCREENS = [
  'UserHome',
  'MyAccreditations',
  'UserProfile',
  'MyVisits',
  'NewVisit',
  'VisitList',
  'PortalUsers',
  'PortalAccounts',
  'AuditAccesses',
];

interface Timing {
  name: string;
  start: number;
  end: number;
  bytes: number;
  kind: string;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const short = (url: string) => {
  const { pathname, search } = new URL(url);
  return (pathname + search).replace(/\/assets\/([\w.]+?)-[\w-]{8}\.js$/, '$1');
};

/** API calls that ran one after another: each one started after the one before had ended. */
function series(calls: Timing[]): string[][] {
  return steps(calls).map((step) => step.map((c) => short(c.name)));
}

function steps(calls: Timing[]): Timing[][] {
  const steps: Timing[][] = [];
  for (const call of [...calls].sort((a, b) => a.start - b.start)) {
    const last = steps.at(-1);
    if (last?.every((c) => call.start < c.end)) last.push(call);
    else steps.push([call]);
  }
  return steps;
}

/** The steps of `calls` in series that start after `at` (the first paint): what the screen still waits for. */
const stepsAfter = (calls: Timing[], at: number) =>
  steps(calls).filter((step) => (step[0]?.start ?? 0) >= at).length;

async function main() {
  const port = Number(process.argv[2] ?? 8640);
  const names = process.argv[3]?.split(',') ?? DEFAULT_SCREENS;
  const { url: portal, stop } = await startPortal(port);
  const browser = await chromium.launch({ executablePath: browserPath() });
  try {
    for (const target of lighthouseScreens(names)) {
      const signIn = await browser.newContext(devices['Pixel 7']);
      const page = await signIn.newPage();
      await page.goto(portal);
      await page.getByTestId('login').click();
      await page.locator('#username').fill(target.username ?? '');
      await page.locator('#password').fill(target.username ?? '');
      await page.locator('button[type=submit]').click();
      await page.waitForURL((url) => !/^\/(auth|callback)\b/.test(url.pathname), { timeout: 60_000 });
      await page.locator('main h1').first().waitFor({ timeout: 60_000 });
      const storageState = await signIn.storageState();
      await signIn.close();

      const context = await browser.newContext({ ...devices['Pixel 7'], storageState });
      // When the screen itself was first drawn (the app's boot spinner is the first contentful paint of these
      // screens): its machine starts then, and so did its first call before the preload.
      await context.addInitScript(() => {
        const w = window as unknown as { __screenAt?: number };
        new MutationObserver((_, observer) => {
          if (document.querySelector('#root [data-screen]')) {
            w.__screenAt = performance.now();
            observer.disconnect();
          }
        }).observe(document, { childList: true, subtree: true });
      });
      const cold = await context.newPage();
      await cold.goto(`${portal}${target.path}`);
      await cold.locator('main h1').first().waitFor({ timeout: 60_000 });
      await cold.waitForLoadState('networkidle');
      // A screen whose calls wait on the session's account id can go quiet for a moment before them.
      await cold.waitForTimeout(2000);
      await cold.waitForLoadState('networkidle');
      const { fcp, drawn, resources } = await cold.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        drawn: (window as unknown as { __screenAt?: number }).__screenAt ?? Number.NaN,
        resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
          name: r.name,
          start: r.startTime,
          end: r.responseEnd,
          bytes: r.transferSize,
          kind: r.initiatorType,
        })),
      }));
      await context.close();
      const scripts = resources.filter((r: Timing) => /\.js$/.test(new URL(r.name).pathname));
      const before = scripts.filter((r: Timing) => r.start < fcp);
      const after = scripts.filter((r: Timing) => r.start >= fcp);
      const api = resources.filter((r: Timing) => new URL(r.name).pathname.startsWith('/api/'));
      const firstApi = api.reduce((n: number, r: Timing) => Math.min(n, r.start), Number.POSITIVE_INFINITY);
      console.log(
        [
          `${target.screen} (${target.username})`,
          `  JS before first paint: ${before.length} files, ${kb(before.reduce((n: number, r: Timing) => n + r.bytes, 0))} KB`,
          `  JS after: ${after.map((r: Timing) => `${short(r.name)} ${kb(r.bytes)}`).join(', ') || '—'}`,
          `  first API call ${firstApi < drawn ? 'before' : 'after'} the screen was drawn (call ${Math.round(firstApi)} ms, screen ${Math.round(drawn)} ms, first paint ${Math.round(fcp)} ms)`,
          `  API calls in series after the screen was drawn: ${stepsAfter(api, drawn)} of ${steps(api).length}`,
          `  API in series: ${series(api)
            .map((s) => s.join(' ∥ '))
            .join(' → ')}`,
          `  texts and settings: ${resources
            .filter((r: Timing) =>
              /\/(tenants|locales)\/|settings|browsers\.json|\/(es|en|eu)-[\w-]{8}\.js$/.test(r.name),
            )
            .map((r: Timing) => `${short(r.name)} ${Math.round(r.start)}–${Math.round(r.end)}`)
            .join(', ')}`,
        ].join('\n'),
      );
    }
  } finally {
    await browser.close();
    await stop();
  }
}

await main();
