import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths';

// The portal's version is the package version (spec: application version 0.13.0).
export const VERSION: string = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
