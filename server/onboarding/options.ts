// Options of the onboarding API, below both the app's dependencies (server/context.ts) and the routers that
// read them, so that neither imports the other.
import type { ApiAuth } from '../auth/verify';
import { type LivenessAction, parseLivenessActions } from '../config';
import type { EnforcementSource, Faults } from '../enforcement/source';
import type { BiometricEngine } from './engine';
import { loadEngine } from './engine-choice';
import { engineInThread } from './engine-thread';
import type { HeavyWorkOptions } from './heavy-work';
import type { OnboardingSettings } from './settings';

/** The auth the onboarding routes need (server/auth/verify.ts in the server, a fake in tests). */
export type OnboardingAuth = ApiAuth;

export interface OnboardingOptions {
  engine?: BiometricEngine | Promise<BiometricEngine>;
  /** Milliseconds between the last upload and the result being available (env PORTRAYAL_RESULT_DELAY_MS). */
  resultDelayMs?: number;
  now?: () => Date;
  faults?: Faults;
  enforcement?: EnforcementSource;
  /** Whether onboardings of a tenant require a liveness proof (default: settings.json lifeProofing, else false). */
  lifeProofing?: (tenant: string, settings: OnboardingSettings) => boolean;
  settings?: (tenant: string) => Promise<OnboardingSettings>;
  /** Dev endpoints (fault switches) are not mounted in production. */
  production?: boolean;
  userCodeTtlMs?: number;
  /** QR credential lifetime (spec §9: 15 days). */
  qrValidityMs?: number;
  /** The actions liveness challenges are drawn from (env LIVENESS_ACTIONS; default all six). */
  livenessActions?: LivenessAction[];
  /** The bounded queue of image decoding and judgements (heavy-work.ts; env HEAVY_WORK_SLOTS for its slots). */
  heavyWork?: HeavyWorkOptions;
}

export const QR_VALIDITY_MS = 15 * 24 * 60 * 60 * 1000;
export const DEFAULT_RESULT_DELAY_MS = 1500;

/**
 * Options from the environment: BIOMETRIC_ENGINE, PORTRAYAL_RESULT_DELAY_MS, ENFORCEMENT_FAULT,
 * LIFE_PROOFING_TENANTS (comma-separated tenants that require liveness), LIVENESS_ACTIONS (server/config.ts),
 * NODE_ENV, HEAVY_WORK_SLOTS (image decodings and judgements at once). The engine runs in a worker
 * thread (engine-thread.ts) unless BIOMETRIC_ENGINE_THREAD=off.
 */
export function onboardingOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): OnboardingOptions {
  const delay = Number(env.PORTRAYAL_RESULT_DELAY_MS);
  const lifeTenants = new Set(
    (env.LIFE_PROOFING_TENANTS ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  );
  const slots = Number(env.HEAVY_WORK_SLOTS);
  return {
    engine: env.BIOMETRIC_ENGINE_THREAD === 'off' ? loadEngine(env) : engineInThread(env),
    heavyWork: Number.isInteger(slots) && slots >= 1 ? { slots } : {},
    resultDelayMs:
      Number.isFinite(delay) && delay >= 0 && env.PORTRAYAL_RESULT_DELAY_MS !== '' ? delay : undefined,
    faults: { enforcement: /^(1|true|on|yes)$/i.test(env.ENFORCEMENT_FAULT ?? '') },
    lifeProofing: (tenant, settings) => lifeTenants.has(tenant) || settings.lifeProofing === true,
    production: env.NODE_ENV === 'production',
    livenessActions: parseLivenessActions(env.LIVENESS_ACTIONS),
  };
}
