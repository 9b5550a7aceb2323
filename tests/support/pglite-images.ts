// What the server tests' globalSetup (pglite-global-setup.ts) hands to the test workers (setup-server.ts).
export const PGLITE_IMAGES = 'pgliteImages';

/** Image files of PGlite data folders, made once per test run. */
export interface PgliteImages {
  /** A new, empty database: what initdb makes. */
  empty: string;
  /** Migrated and seeded for these tenants (createTestDb's default). */
  seeded: { tenants: string[]; path: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    [PGLITE_IMAGES]: PgliteImages;
  }
}
