export const BUNDLE_DIR: string;
export const SERVER_BUNDLE: string;
/** Writes the server's bundle (`.server/main.mjs`) and returns its path. */
export function bundleServer(): Promise<string>;
/** The server's module (server/main.ts), from the bundle as it is (written by bundleServer beforehand). */
export function importBundle(): Promise<typeof import('../server/main')>;
/** The server's module (server/main.ts), from a bundle brought up to date now. */
export function importServer(): Promise<typeof import('../server/main')>;
