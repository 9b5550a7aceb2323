// What every onboarding router works with: the options resolved once, and the per-request helpers that find
// what the caller owns. A person reaches only the onboardings and portrayals they own or assist; anything else,
// a made-up id included, is a 404.
import type { Context, MiddlewareHandler } from 'hono';
import type { Permission } from '../../contract/api/permissions';
import type { AuthEnv } from '../auth/verify';
import { type BackgroundWork, createBackgroundWork } from '../background';
import { LIVENESS_ACTIONS, type LivenessAction } from '../config';
import type { AppDeps } from '../context';
import type { Db } from '../db/db';
import { type EnforcementSource, type Faults, referenceEnforcement } from '../enforcement/source';
import { HttpProblem } from '../http/problem';
import { isUuid } from '../http/validation';
import type { Logger } from '../logger';
import type { JudgementKind } from '../metrics';
import { portalOriginOf } from '../origins';
import type { BiometricEngine } from './engine';
import { loadEngine } from './engine-choice';
import { createHeavyWork, type HeavyWork } from './heavy-work';
import { type ImageChecks, imageChecks } from './image-checks';
import {
  DEFAULT_RESULT_DELAY_MS,
  type OnboardingAuth,
  type OnboardingOptions,
  QR_VALIDITY_MS,
} from './options';
import { type OnboardingSettings, settingsLoader } from './settings';
import { findOwnOnboarding, type OnboardingRow, type Owner } from './store/onboardings';
import { findOwnPortrayal, type PortrayalRow } from './store/portrayals';
import { USER_CODE_TTL_MS } from './user-codes';

export type Ctx = Context<AuthEnv>;

export interface OnboardingRuntime {
  db: Db;
  logger: Logger;
  now: () => Date;
  engine: () => Promise<BiometricEngine>;
  /** The one check of every incoming image (image-checks.ts), shared with the single and bulk registrations. */
  images: ImageChecks;
  /** The bounded queue of image decoding and the engine's judgements (heavy-work.ts). */
  heavy: HeavyWork;
  /** Runs one of the engine's judgements, timed for /metrics (inside its heavy-work job: the queue is not the engine). */
  judgement: <T>(kind: JudgementKind, job: () => Promise<T>) => Promise<T>;
  /** Where a judgement started after an answer is counted, so that stopping the server waits for it. */
  background: BackgroundWork;
  faults: Faults;
  enforcement: EnforcementSource;
  settingsOf: (tenant: string) => Promise<OnboardingSettings>;
  lifeProofingOf: (tenant: string, settings: OnboardingSettings) => boolean;
  resultDelayMs: number;
  /** The actions liveness challenges are drawn from. */
  livenessActions: readonly LivenessAction[];
  userCodeTtlMs: number;
  qrValidityMs: number;
  /** Every onboarding call needs one of the onboarding permissions (spec §6). */
  requireOnboarding: MiddlewareHandler<AuthEnv>;
  production: boolean;
  /** The known portal origin for links made during a call (server/origins.ts); undefined: none known. */
  portalOrigin: (c: Context<AuthEnv>) => string | undefined;
}

const ONBOARDING_PERMISSIONS: Permission[] = ['post_onboardings_auto', 'post_onboardings_assisted'];

export function onboardingRuntime(
  deps: AppDeps,
  auth: OnboardingAuth,
  options: OnboardingOptions,
): OnboardingRuntime {
  // The engine loads its models once, at start-up (warmUp), and says so in the log; a warm-up that fails is
  // logged and each call that needs the models then fails into a portrayal error (validas_error).
  const enginePromise = Promise.resolve(options.engine ?? loadEngine()).then(async (engine) => {
    if (engine.warmUp) {
      const started = performance.now();
      try {
        const line = await engine.warmUp();
        deps.logger.log('info', line, {
          engine: engine.name,
          warmUpMs: Math.round(performance.now() - started),
        });
      } catch (failure) {
        deps.logger.log('error', 'biometric engine warm-up failed', {
          engine: engine.name,
          err: failure instanceof Error ? failure.message : String(failure),
        });
      }
    }
    return engine;
  });
  enginePromise.catch(() => undefined); // reported by the first call that needs it
  deps.readiness?.track('biometric engine', enginePromise);
  const faults: Faults = options.faults ?? { enforcement: false };
  const heavy = createHeavyWork(options.heavyWork);
  deps.metrics?.watchHeavyWork(heavy);
  return {
    db: deps.db,
    logger: deps.logger,
    now: options.now ?? (() => new Date()),
    engine: () => enginePromise,
    images: imageChecks(() => enginePromise, heavy),
    heavy,
    judgement: deps.metrics?.judgement ?? ((_kind, job) => job()),
    background: deps.background ?? createBackgroundWork(),
    faults,
    enforcement: options.enforcement ?? referenceEnforcement(faults),
    settingsOf: options.settings ?? settingsLoader(deps.config.publicDir),
    lifeProofingOf: options.lifeProofing ?? ((_tenant, settings) => settings.lifeProofing === true),
    resultDelayMs: options.resultDelayMs ?? DEFAULT_RESULT_DELAY_MS,
    livenessActions: options.livenessActions ?? LIVENESS_ACTIONS,
    userCodeTtlMs: options.userCodeTtlMs ?? USER_CODE_TTL_MS,
    qrValidityMs: options.qrValidityMs ?? QR_VALIDITY_MS,
    requireOnboarding: auth.requireAuth(...ONBOARDING_PERMISSIONS),
    production: options.production ?? false,
    portalOrigin: (c) => portalOriginOf(c, c.get('tenant'), deps),
  };
}

export const ownerOf = (c: Ctx): Owner => ({ tenant: c.get('tenant'), sub: c.get('auth').sub });

export const notFound = (what: string) => new HttpProblem(404, `No ${what} with that id.`, 'not_found');

export function assertOpen(status: string | null): void {
  if (status === 'completed') {
    throw new HttpProblem(409, 'This onboarding is already completed.', 'onboarding_completed');
  }
}

export const legalTermsNotAccepted = () =>
  new HttpProblem(
    409,
    'The legal terms of this onboarding are not accepted yet.',
    'legal_terms_not_accepted',
  );

export async function ownOnboarding(rt: OnboardingRuntime, c: Ctx, id: string): Promise<OnboardingRow> {
  const row = isUuid(id) ? await findOwnOnboarding(rt.db, ownerOf(c), id) : undefined;
  if (!row) throw notFound('onboarding');
  return row;
}

export async function ownPortrayal(rt: OnboardingRuntime, c: Ctx, id: string): Promise<PortrayalRow> {
  const row = isUuid(id) ? await findOwnPortrayal(rt.db, ownerOf(c), id) : undefined;
  if (!row) throw notFound('portrayal');
  return row;
}
