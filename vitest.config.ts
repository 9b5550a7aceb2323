import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Timeouts here only stop a test that hangs: on 2 cores shared with other work a test may take several
// times its usual wall time, and none of these tests is about how fast it runs (see docs/testing.md).
/** The server test files that run against PostgreSQL as well as PGlite (project server-postgres). */
export const POSTGRES_TESTS = [
  'server/db/postgres.test.ts',
  'server/auth/auth.test.ts',
  'server/auth/throttle-store.test.ts',
  'server/security/token-revocation.test.ts',
  'server/security/dev-faults.test.ts',
  'server/onboarding/routes.test.ts',
  'server/credentials/routes.test.ts',
  'server/accounts/routes.test.ts',
  'server/credential-resets/routes.test.ts',
  'server/visits/routes.test.ts',
  'server/retention/retention.test.ts',
];

export default defineConfig({
  plugins: [react()],
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One test file per core. Vitest's default leaves one core to itself (1 worker on 2 cores), but most server
    // files wait on sockets and the database as much as on the CPU.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'contract/**/*.test.ts', 'machines/**/*.test.ts'],
          // Plain Node: the files that need a browser start with `// @vitest-environment jsdom`.
          environment: 'node',
          setupFiles: ['tests/support/setup-dom.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          // The files of a worker share its loaded modules (the server's graph, PGlite, the face models): about
          // a minute less on 2 cores. So a file leaves no server or database open and no module setting changed.
          isolate: false,
          // Needs a PostgreSQL server: runs in server-postgres only.
          exclude: ['server/db/postgres.test.ts'],
          environment: 'node',
          // One initdb per run instead of one per database: every test database starts from an image of
          // a new (or a migrated and seeded) database made by the global setup.
          globalSetup: ['tests/support/pglite-global-setup.ts'],
          setupFiles: ['tests/support/setup-server.ts'],
        },
      },
      {
        extends: true,
        // The same server tests on a real PostgreSQL: a throwaway server per run (initdb in a temporary folder, a
        // free port), each test database a new database on it. A subset, so that npm test stays well under
        // 15 minutes on 2 cores: the database layer, sign-in and tokens (identity provider storage, the throttle),
        // and the API routes that hold most of the SQL (see docs/testing.md).
        test: {
          name: 'server-postgres',
          include: POSTGRES_TESTS,
          environment: 'node',
          globalSetup: ['tests/support/postgres-global-setup.ts'],
          setupFiles: ['tests/support/setup-postgres.ts'],
        },
      },
      {
        extends: true,
        // The tooling under scripts/ (machines:check and its fixtures): plain Node, no DOM set-up.
        test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        // Replaying hundreds of generated paths takes seconds; on 2 busy cores, more than the 5 s default.
        test: {
          name: 'model',
          include: ['tests/model/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
    ],
  },
});
