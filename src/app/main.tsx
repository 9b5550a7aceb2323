import '../styles/index.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { tenantFromHost } from '../../contract/tenant/resolve';
import { passesGuard } from '../auth/access';
import { type ScreenName, screenAt, screens } from '../domain/screens';
import { preloadCatalogue } from '../i18n/catalogue';
import { type Inspect, type Runtime, RuntimeProvider } from '../runtime/context';
import { preloadTenant, preloadTenantTexts } from '../tenant/load';
import { App } from './app';
import { wholeStylesheetLoaded } from './full-sheet';
import { screenComponents } from './routes';
import { createRuntimeInSteps, initialLocale } from './runtime';

// The Silent route runs inside the hidden renewal iframe: it hands the provider's answer to the page
// that opened it and renders nothing (spec §2: Silent, the token renewal return).
function completeSilentRenewal() {
  const host = tenantFromHost(window.location.hostname);
  if (host.kind !== 'tenant') return;
  void import('../auth/oidc').then(({ completeSilentRenewal }) =>
    completeSilentRenewal({ origin: window.location.origin, realm: host.tenant, clientId: 'portal' }),
  );
}

/** The longest the first render waits for the screen's first calls to go out. */
const RENDER_WAITS_FOR_CALLS_MS = 1000;

/** The next task: what is scheduled here runs after the browser has had the main thread back. */
const nextTask = (work: () => void) => setTimeout(work);

// On a slow phone every task after the first paint that runs past 50 ms blocks the person (Lighthouse's TBT). The
// server has painted the first screen already (server/shell.ts), so the app starts in eight tasks, each short: the
// scripts' evaluation; the requests for what the first screen needs (the tenant's settings, its texts: none when the
// server's page carries them), then for the screen's chunk (on a page that links its files already, nothing new), so
// that they travel while the rest runs; the three actors (their first snapshots); their start; the first render, once
// the screen's first API calls have gone out, as a transition, which React renders in slices that give the main
// thread back every few milliseconds.
function startPortal(inspect?: Inspect) {
  nextTask(() => {
    const host = tenantFromHost(window.location.hostname);
    if (host.kind === 'tenant') preloadTenant(window.location.hostname);
    const locale = initialLocale();
    preloadCatalogue(locale);
    // The tenant's text overrides too, at its own folder: not one round trip after its settings.
    if (host.kind === 'tenant') preloadTenantTexts(host.tenant, locale);
    const first = screenAt(window.location.pathname);
    // The screen's chunk in a task of its own: each of its files is a <link rel=modulepreload> the page adds, unless
    // the server's page has it already (server/screen-preloads.ts).
    if (first) nextTask(() => void screenComponents[first].preload().catch(() => undefined));
    // The actors, one per task (each computes its first snapshot), then their start: together they were one of the
    // longest tasks of the start.
    const steps = createRuntimeInSteps(undefined, inspect);
    const step = () => {
      const next = steps.next();
      nextTask(next.done ? () => startRuntime(next.value, first) : step);
    };
    nextTask(step);
  });
}

/** Starts the actors, sends the first screen's calls and renders once they have gone out. */
function startRuntime(runtime: Runtime, first: ScreenName | undefined) {
  runtime.start();
  // The screen's first API calls, once the session is restored (they wait on the settings: the stored token's
  // key and the API's tenant come from them), not after its chunk, the first render and the API client.
  // Welcome and Landing make no call at start: the preload's code is not theirs to download.
  const callsSent =
    first !== undefined && first !== 'Welcome' && first !== 'Landing'
      ? import('../actors/preload').then(({ preloadFirstCalls }) =>
          preloadFirstCalls(runtime, first, (session) => {
            const settings = runtime.app.getSnapshot().context.tenant?.settings;
            return settings !== undefined && passesGuard(screens[first].guard, session, settings);
          }),
        )
      : Promise.resolve();
  // The first render waits for those calls to have gone out (the server's paint is on screen meanwhile): its
  // slices would otherwise come between every step that leads to them (the session read, the call modules'
  // evaluation) and the data would come later. It waits a second at most, whatever holds the calls up.
  const timeUp = new Promise<void>((resolve) => setTimeout(resolve, RENDER_WAITS_FOR_CALLS_MS));
  // And for the whole stylesheet, on a page whose inline sheet is the paint's only (src/app/full-sheet.ts).
  void Promise.all([Promise.race([callsSent.catch(() => undefined), timeUp]), wholeStylesheetLoaded()]).then(
    () =>
      nextTask(() => {
        const container = document.getElementById('root');
        if (!container) throw new Error('index.html has no #root');
        const root = createRoot(container);
        startTransition(() =>
          root.render(
            <StrictMode>
              <RuntimeProvider runtime={runtime}>
                <App />
              </RuntimeProvider>
            </StrictMode>,
          ),
        );
      }),
  );
}

// `npm run dev` with ?inspect in the URL: every actor shows in Stately's hosted inspector (it opens a window on
// stately.ai, so it needs the internet). Vite drops this branch and the package from the production build.
const inspecting = import.meta.env.DEV && new URLSearchParams(window.location.search).has('inspect');

if (window.location.pathname === screens.Silent.path) completeSilentRenewal();
else if (inspecting)
  void import('@statelyai/inspect').then(({ createBrowserInspector }) =>
    startPortal(createBrowserInspector().inspect),
  );
else startPortal();
