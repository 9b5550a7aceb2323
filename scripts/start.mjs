// npm start: build the SPA if needed, then serve everything (SPA, tenant assets, API, database) on PORT.
import { register } from 'tsx/esm/api';
import { buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded();
register();
const { main } = await import('../server/main.ts');
await main();
const port = process.env.PORT ?? 8080;
console.log(`Tenants: gambling → http://localhost:${port}   demo → http://demo.localhost:${port}`);
