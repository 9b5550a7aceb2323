import type { BrowserSettings, TenantSettings } from '../../contract/api/settings';
import {
  arrayOf,
  boolean,
  type Check,
  integerAtLeastZero,
  integerBetween,
  matching,
  nonEmpty,
  object,
  oneOf,
  problemsOf,
  recordOf,
  string,
} from '../domain/shape-check';
import { TenantLoadError } from './tenant-error';

// The checks of the contract's settings schemas (contract/api/settings.ts), written out by hand: the first
// screen needs them before it can draw, and arktype would add ~45 KB and its start-up work to every first visit.
// The server and the tests keep the arktype schemas; settings-check.test.ts proves both agree, field by field.

const localeCode = oneOf('es', 'en', 'eu');
const slug = matching(/^[a-z0-9-]+$/);
const days = integerBetween(1, 3650);

/**
 * Like the contract's arktype object of optional keys: any object (an array too) whose keys, where present, pass
 * `check`.
 */
const optionalKeys =
  (keys: readonly string[], check: Check): Check =>
  (v, path, p) => {
    if (typeof v !== 'object' || v === null) {
      object({})(v, path, p);
      return;
    }
    for (const key of keys) {
      if (key in v) check((v as Record<string, unknown>)[key], `${path}.${key}`, p);
    }
  };

// The title per language, and the retention day counts.
const titles = optionalKeys(['es', 'en', 'eu'], nonEmpty);
const retention = optionalKeys(['evidenceDays', 'unfinishedOnboardingDays', 'auditDays'], days);

const tenantSettings = object({
  tenant: slug,
  title: nonEmpty,
  'titles?': titles,
  domain: nonEmpty,
  assetsUrl: matching(/^\/[A-Za-z0-9/_-]*$/),
  theme: object({
    brandColor: matching(/^#[0-9a-fA-F]{6}$/),
    logo: matching(/^[A-Za-z0-9._-]+\.(svg|png|webp)$/),
  }),
  locales: arrayOf(localeCode, 1),
  userRegisterEnabled: boolean,
  assistantRegisterEnabled: boolean,
  biometricQR: boolean,
  'acsIdSchema?': string,
  registerTypes: arrayOf(
    oneOf(
      'none',
      'WithIdentityProofing',
      'OnlySelfieWithId',
      'Single',
      'Auto',
      'Assisted',
      'AssistedOtherDocuments',
      'AssistedExistingUsers',
    ),
  ),
  bmsServices: arrayOf(string),
  visits: object({ locations: arrayOf(string), mustAcceptPlan: boolean }),
  auditAccessesLevel: oneOf('all', 'myscope', 'none'),
  watchlistDomains: arrayOf(string),
  useWatch: boolean,
  extendedInterdictionForm: boolean,
  credentialTypesWhitelist: arrayOf(oneOf('qr', 'passport', 'id_card', 'biometric_qr', 'embedding')),
  identityProvider: object({ realm: slug, clientId: nonEmpty, 'broker?': matching(/^[\w.-]+$/) }),
  postEnrolmentAction: oneOf('home', 'showQr', 'accreditations', 'landing'),
  onboardingSteps: boolean,
  showNextSteps: boolean,
  askFieldForDelete: oneOf('id_number', 'none'),
  exclusiveDoc: oneOf('id', 'id_card', 'driving_license', 'passport', 'others', 'any', null),
  customImages: recordOf(string),
  knowMoreUrl: string,
  'timeZone?': string,
  'retention?': retention,
});

const browserSettings = recordOf(
  object({
    minMobileVersion: integerAtLeastZero,
    minDesktopVersion: integerAtLeastZero,
    downloadUrl: string,
  }),
);

/** Checks settings against the contract; the error names every problem found. */
export function parseSettings(tenant: string, raw: unknown): TenantSettings {
  const problems = problemsOf(tenantSettings, raw);
  if (problems.length > 0) {
    throw new TenantLoadError({ kind: 'invalid-settings', tenant, summary: problems.join('\n') });
  }
  const settings = {
    acsIdSchema: 'string64',
    timeZone: 'Europe/Madrid',
    ...(raw as object),
  } as TenantSettings;
  if (settings.tenant !== tenant) {
    throw new TenantLoadError({
      kind: 'invalid-settings',
      tenant,
      summary: `tenant must be "${tenant}" (was "${settings.tenant}")`,
    });
  }
  return settings;
}

/** A broken browsers.json must not lock everyone out: the browser check then has nothing to refuse. */
export function parseBrowsers(raw: unknown): BrowserSettings {
  const browsers = raw ?? {};
  return problemsOf(browserSettings, browsers).length === 0 ? (browsers as BrowserSettings) : {};
}

/** A tenant's text overrides; a malformed file means no overrides. */
export function parseOverrides(raw: unknown): Record<string, string> {
  const texts = raw ?? {};
  return problemsOf(recordOf(string), texts).length === 0 ? (texts as Record<string, string>) : {};
}
