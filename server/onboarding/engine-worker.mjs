// The engine's worker thread when the server runs from its sources (tsx): the loop itself is
// engine-worker-loop.ts, which npm start's bundle carries as `.server/engine-worker.mjs` instead.
import { register } from 'tsx/esm/api';

register();
await import('./engine-worker-loop.ts');
