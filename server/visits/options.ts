import type { Clock } from '../clock';
import type { KnownOrigins } from '../origins';

export interface VisitsOptions {
  now?: () => Date;
  /** The clock of the visit rules; CLOCK_AT and PUT /api/dev/clock move it outside production (server/clock.ts). */
  clock?: Clock;
  /** How long a confirmation link lives; VISIT_TOKEN_TTL (seconds) or 48 h. */
  tokenTtlMs?: number;
  origins?: KnownOrigins;
}
