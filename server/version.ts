import { readFileSync } from 'node:fs';

// The portal's version is the package version (spec: application version 0.13.0).
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
