import { defineConfig, devices } from '@playwright/test';
import base from './playwright.config';

// The cross-process journey: against `npm run cluster` (2 server processes on one throwaway PostgreSQL behind
// HAProxy) on its own ports, beside the main journeys' servers: E2E_PORT+2 for the balancer, +3 and +4 for the
// processes. One worker: the journey restarts a process of the cluster it shares with nothing else.
const port = Number(process.env.E2E_PORT ?? 8090) + 2;
export const CLUSTER_STATE_FILE = `.data/cluster-${port}.json`;

export default defineConfig({
  ...base,
  testDir: 'tests/cluster',
  outputDir: 'test-results/cluster',
  workers: 1,
  fullyParallel: false,
  use: { ...base.use, baseURL: `http://localhost:${port}` },
  projects: [{ name: 'cluster', use: { ...devices['Pixel 7'], launchOptions: base.use?.launchOptions } }],
  webServer: {
    command: 'node scripts/cluster.mjs',
    url: `http://localhost:${port}/health`,
    reuseExistingServer: false,
    timeout: 240_000,
    // SIGTERM: the cluster drains its processes, then removes its PostgreSQL and temporary files.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    env: {
      PORT: String(port),
      CLUSTER_PROCESSES: '2',
      CLUSTER_STATE_FILE,
      LOG_LEVEL: 'warn',
      // Renewal within the journey: 20-second access tokens.
      ACCESS_TOKEN_TTL: '20',
      SEED_NEWCOMERS: '3',
    },
  },
});
