import { defineConfig, devices } from '@playwright/test';
import { chromiumWithCamera } from './tests/e2e/camera';

// The journeys run against the real server (npm start) on its own port with a throwaway database.
const port = Number(process.env.E2E_PORT ?? 8090);
// The camera is Chromium's fake device, fed with the specimen document (scripts/make-fixtures.mjs).
const chromium = chromiumWithCamera('document.y4m');

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  // Three workers, one Chromium each, beside the two servers: on 2 cores the journeys wait on the servers,
  // timers and the filmed poses often enough that a third browser fills the gaps (measured on a fresh clone:
  // the journeys 15.7 → 14.0 min, the machine's idle time over the whole run 429 → 189 CPU-s; docs/testing.md).
  // E2E_WORKERS=1 for a machine with one core to spare.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  reporter: [['list']],
  // Hang guards, not speed limits: on 2 cores shared with other work a step can take several times its
  // usual wall time (the journeys that need more set their own with test.setTimeout).
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: chromium,
    // A failed journey keeps its trace (actions, console, network) and a screenshot of the end. The trace leaves
    // out the screencast (encoding a frame of every paint took about 40 % of the journeys' CPU) and the DOM
    // snapshot of every action (another 10 %): `npx playwright test <spec> --trace on` records them both.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    permissions: ['camera'],
    screenshot: 'only-on-failure',
  },
  projects: [
    // The liveness journeys' camera films a head turning and tilting (tests/e2e/liveness.spec.ts). Listed first,
    // they start with the run on one worker: they wait on the filmed poses more than on the CPU, so they overlap
    // the other journeys instead of ending the run alone.
    {
      name: 'mobile-head-turns',
      testMatch: /liveness\.spec\.ts$/,
      use: { ...devices['Pixel 7'], launchOptions: chromiumWithCamera('head-turns.y4m') },
    },
    // @desktop-only journeys are about a computer (DeviceDetect) and run in the desktop project alone.
    {
      name: 'mobile',
      testIgnore: /liveness\.spec\.ts$/,
      use: { ...devices['Pixel 7'], launchOptions: chromium },
      grepInvert: /@desktop-only/,
    },
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium }, grep: /@desktop/ },
  ],
  // Both servers start at once from the first entry (scripts/e2e-servers.mjs); the second entry only waits for the
  // renewal server to answer. Nothing else may listen on E2E_PORT+1: that entry would take it for the renewal one.
  // The start timeouts are hang guards: a quiet two-core machine starts both in under a minute, a busy one in 3.
  webServer: [
    {
      command: 'node scripts/e2e-servers.mjs',
      url: `http://localhost:${port}/health`,
      reuseExistingServer: false,
      timeout: 300_000,
      env: {
        E2E_SERVERS: JSON.stringify([
          // SEED_MEMBERS: enrolled people the account journeys change or delete (tests/e2e/account.spec.ts).
          {
            PORT: String(port),
            LOG_LEVEL: 'silent',
            SEED_NEWCOMERS: '30',
            SEED_MEMBERS: '9',
            // The shipped tenants and two of tests/fixtures/tenants/ (scripts/e2e-servers.mjs), with accounts only:
            // steps shows NextSteps and IdentityProofingStep and ends on FinishRegister; selfie enrols with a
            // selfie alone (RegisterSelfie) and the liveness proof (TakeSelfieAlive), both in es, en and eu.
            PUBLIC_DIR: '.data/e2e-public',
            SEED_ACCOUNT_TENANTS: 'steps,selfie',
            LIFE_PROOFING_TENANTS: 'selfie',
          },
          // The same portal with 20-second access tokens (the renewal journeys) and liveness on the demo tenant.
          {
            PORT: String(port + 1),
            LOG_LEVEL: 'silent',
            ACCESS_TOKEN_TTL: '20',
            SEED_NEWCOMERS: '5',
            // The demo tenant of this server asks for the liveness proof (TakeSelfieAlive), whose challenges ask
            // only what the head-turns camera of tests/e2e/liveness.spec.ts shows (it neither blinks nor smiles).
            LIFE_PROOFING_TENANTS: 'demo',
            LIVENESS_ACTIONS: 'turn_left,turn_right,look_up,look_down',
            // Visit confirmation links live 1 s here (the expired-link journey of tests/e2e/visits.spec.ts).
            VISIT_TOKEN_TTL: '1',
          },
        ]),
      },
    },
    {
      command: 'node -e "setInterval(() => {}, 3_600_000)"',
      url: `http://localhost:${port + 1}/health`,
      reuseExistingServer: true,
      timeout: 300_000,
    },
  ],
});
