import { fileURLToPath } from 'node:url';

/**
 * The project folder, where the server finds the files it reads at run time (package.json, the migrations, the
 * message catalogues). Anchored here, one folder below it, so that it holds both for the sources under tsx and for
 * the bundle npm start runs (`.server/main.mjs`, also one folder below: scripts/bundle-server.mjs).
 */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
