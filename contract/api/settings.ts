import { type } from 'arktype';

// Tenant settings (spec §3 "Tenant settings"), validated on load by the portal and by the server.
export const localeCode = type("'es' | 'en' | 'eu'");
export type LocaleCode = typeof localeCode.infer;

export const hexColour = type(/^#[0-9a-fA-F]{6}$/);

export const registerType = type(
  "'none' | 'WithIdentityProofing' | 'OnlySelfieWithId' | 'Single' | 'Auto' | 'Assisted' | 'AssistedOtherDocuments' | 'AssistedExistingUsers'",
);

export const credentialType = type("'qr' | 'passport' | 'id_card' | 'biometric_qr' | 'embedding'");

/**
 * How long a tenant keeps personal data, in days (server/retention/; README "Retention"). Each is optional: a
 * missing one takes its default (RETENTION_DEFAULTS in server/retention/rules.ts). At least a day, at most ten
 * years, so that a typing slip (0, or days meant as hours) can neither empty the tenant nor keep data for ever.
 */
export const retentionSettings = type({
  /** Document and selfie images, liveness frames: from the day they were taken. */
  'evidenceDays?': '1 <= number.integer <= 3650',
  /** Onboardings never finished: from their last step. */
  'unfinishedOnboardingDays?': '1 <= number.integer <= 3650',
  /** The access audit's rows (the doors' decisions). */
  'auditDays?': '1 <= number.integer <= 3650',
});
export type RetentionSettings = typeof retentionSettings.infer;

export const tenantSettings = type({
  tenant: /^[a-z0-9-]+$/,
  title: 'string > 0',
  /** The title in each language; a language without one shows `title`. */
  'titles?': { 'es?': 'string > 0', 'en?': 'string > 0', 'eu?': 'string > 0' },
  domain: 'string > 0',
  assetsUrl: /^\/[A-Za-z0-9/_-]*$/,
  theme: {
    brandColor: hexColour,
    logo: /^[A-Za-z0-9._-]+\.(svg|png|webp)$/,
  },
  locales: localeCode.array().atLeastLength(1),
  userRegisterEnabled: 'boolean',
  assistantRegisterEnabled: 'boolean',
  biometricQR: 'boolean',
  acsIdSchema: "string = 'string64'",
  registerTypes: registerType.array(),
  bmsServices: 'string[]',
  visits: { locations: 'string[]', mustAcceptPlan: 'boolean' },
  auditAccessesLevel: "'all' | 'myscope' | 'none'",
  watchlistDomains: 'string[]',
  useWatch: 'boolean',
  extendedInterdictionForm: 'boolean',
  credentialTypesWhitelist: credentialType.array(),
  identityProvider: {
    realm: /^[a-z0-9-]+$/,
    clientId: 'string > 0',
    /** The external identity provider people sign in with, whose claims the broker token endpoint gives. */
    'broker?': /^[\w.-]+$/,
  },
  /** Where FinishRegister's Continue goes (contract/domain/enrolment.ts postEnrolmentScreen). */
  postEnrolmentAction: "'home' | 'showQr' | 'accreditations' | 'landing'",
  onboardingSteps: 'boolean',
  showNextSteps: 'boolean',
  askFieldForDelete: "'id_number' | 'none'",
  exclusiveDoc: "'id' | 'id_card' | 'driving_license' | 'passport' | 'others' | 'any' | null",
  customImages: 'Record<string, string>',
  knowMoreUrl: "string | ''",
  /**
   * The tenant's IANA timezone: the days of the date presets (AuditAccesses, VisitList) are counted in it, whatever
   * the browser's zone. Not in spec §3's list; a facility's own timezone still rules the times shown for it.
   */
  timeZone: "string = 'Europe/Madrid'",
  /** Not in spec §3's list: how long biometric evidence, unfinished onboardings and the access audit are kept. */
  'retention?': retentionSettings,
});
export type TenantSettings = typeof tenantSettings.infer;

// browsers.json: supported browsers by name (spec §3 "Browser settings").
export const browserSettings = type({
  '[string]': {
    minMobileVersion: 'number.integer >= 0',
    minDesktopVersion: 'number.integer >= 0',
    downloadUrl: 'string',
  },
});
export type BrowserSettings = typeof browserSettings.infer;

// {assets}/locales/{lang}.json: a tenant's text overrides, flat message ids to ICU strings.
export const localeOverrides = type({ '[string]': 'string' });
