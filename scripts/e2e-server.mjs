// The server the browser journeys run against: the built portal on a fresh, throwaway database.
import { rmSync } from 'node:fs';
import { importBundle } from './bundle-server.mjs';

process.env.DATA_DIR = `.data/e2e-${process.env.PORT ?? 'default'}`;
rmSync(process.env.DATA_DIR, { recursive: true, force: true });
// scripts/e2e-servers.mjs built the SPA and bundled the server, once for both servers.
const { main } = await importBundle();
await main();
