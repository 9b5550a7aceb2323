// npm start, the journeys' servers, the cluster and the bench run the server from one bundle instead of its
// sources under tsx: the same modules, compiled once into `.server/main.mjs` (and the engine's worker thread into
// `.server/engine-worker.mjs`), with the packages of node_modules left as imports. Under tsx the process kept the
// TypeScript compiler and a source map of every module it loaded: about 120 MB of a server's resident memory, and
// 2–3 s of its start (docs/heavy-uploads.md). esbuild writes the bundle in under a second, so it is written at
// every start and is never older than the sources. `.server/` sits one folder below the project, as `server/`
// does, so the server's paths (server/paths.ts) hold for both.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const BUNDLE_DIR = '.server';
export const SERVER_BUNDLE = `${BUNDLE_DIR}/main.mjs`;

export async function bundleServer() {
  const { outputFiles } = await build({
    entryPoints: {
      main: 'server/main.ts',
      'engine-worker': 'server/onboarding/engine-worker-loop.ts',
    },
    outdir: BUNDLE_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    write: false,
  });
  // Two servers may start from one checkout at once (the journeys', npm start beside them): each file is replaced
  // whole (a rename), and left alone when it has not changed, so no process reads a file another is writing.
  mkdirSync(BUNDLE_DIR, { recursive: true });
  for (const file of outputFiles) {
    let current;
    try {
      current = readFileSync(file.path);
    } catch {
      current = undefined;
    }
    if (current?.equals(file.contents)) continue;
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  return SERVER_BUNDLE;
}

/** The server's module (server/main.ts), from the bundle as it is (written by bundleServer beforehand). */
export async function importBundle() {
  // Stack traces name the sources (the bundle's source map), as under tsx.
  process.setSourceMapsEnabled(true);
  return import(pathToFileURL(SERVER_BUNDLE).href);
}

/** The server's module (server/main.ts), from a bundle brought up to date now. */
export async function importServer() {
  await bundleServer();
  return importBundle();
}
