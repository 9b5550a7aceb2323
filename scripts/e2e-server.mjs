// The server the browser journeys run against: the built portal on a fresh, throwaway database.
import { rmSync } from 'node:fs';
import { register } from 'tsx/esm/api';
import { buildIfNeeded } from './build-if-needed.mjs';

process.env.DATA_DIR = `.data/e2e-${process.env.PORT ?? 'default'}`;
rmSync(process.env.DATA_DIR, { recursive: true, force: true });
buildIfNeeded();
register();
const { main } = await import('../server/main.ts');
await main();
