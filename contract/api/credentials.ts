import { type } from 'arktype';
import { uuid } from './onboarding.ts';
import { requiredText, TEXT_LIMITS } from './text.ts';

// Credentials and accreditations (spec §3 Credentials of a user, Accreditation; §4 Accreditation; §7
// Credentials): the request bodies, which the reference server validates with these very schemas, and the
// responses, which src/api parses with them.

/** Spec §3: the server's credential types (qr → the QR accreditation, embedding → face, enrolment_proof → proof). */
export const serverCredentialType = type("'qr' | 'embedding' | 'enrolment_proof'");
export type ServerCredentialType = typeof serverCredentialType.infer;

/** Spec §4 Accreditation: active (refreshed by setting it active again) or revoked. */
export const credentialState = type("'active' | 'revoked'");
export type CredentialState = typeof credentialState.infer;

/** One credential of a user, as GET /public/credentials/{userId}/sids/{sid} gives it (JSON). */
export const credential = type({
  sid: 'string',
  user_id: 'string',
  credential_type: serverCredentialType,
  state: credentialState,
  starts_at: 'string',
  ends_at: 'string | null',
  created_at: 'string',
  /** Active, and for a qr one its end still in the future (spec §3). */
  valid: 'boolean',
});
export type Credential = typeof credential.infer;

/** Spec §3 Credentials of a user: activated, locations, metadata, credentials keyed by sid. */
export const userCredentials = type({
  user_id: 'string',
  activated: 'boolean',
  locations: 'string[]',
  metadata: { acs_id: 'string', 'first_name?': 'string', 'last_name?': 'string' },
  credentials: {
    '[string]': {
      created_at: 'string',
      credential_type: serverCredentialType,
      state: credentialState,
      starts_at: 'string',
      ends_at: 'string | null',
      valid: 'boolean',
    },
  },
});
export type UserCredentials = typeof userCredentials.infer;

/** POST /public/credentials/{userId}/locations (spec §6 post_credentials_location): a facility id (or its alias). */
export const addLocationBody = type({ location: requiredText(100) });
export type AddLocationBody = typeof addLocationBody.infer;

/** Its answer: every location of the person's credentials, by facility id. */
export const userLocations = type({ user_id: 'string', locations: 'string[]' });
export type UserLocations = typeof userLocations.infer;

/** PUT /public/credentials/{userId}/sids/{sid}/state */
export const credentialStateBody = type({ state: credentialState });
export type CredentialStateBody = typeof credentialStateBody.infer;

/** GET /public/credentials/{userId}/sids/{sid}/state: what a door asks before letting someone in. */
export const credentialStateAnswer = type({ sid: 'string', state: credentialState, valid: 'boolean' });
export type CredentialStateAnswer = typeof credentialStateAnswer.infer;

/** Spec §7 POST /internal/rights actions. */
export const rightAction = type("'access_qr' | 'access_face' | 'access_proof'");
export type RightAction = typeof rightAction.infer;

/** POST /internal/rights: subject (the user id), object (what the right opens), action, optional new selfie. */
export const rightsRequest = type({
  subject: requiredText(TEXT_LIMITS.id),
  object: requiredText(TEXT_LIMITS.text),
  action: rightAction,
  'claims?': { 'portrayal_id?': uuid },
});
export type RightsRequest = typeof rightsRequest.infer;

/** The problem code that means "you already hold one": a success carrying the existing credential (spec §7). */
export const CREDENTIAL_ALREADY_EXISTS = 'accreditation-request/credential-already-exists';

/** Its body: the problem members plus the existing credential. */
export const credentialAlreadyExists = type({
  code: `'${CREDENTIAL_ALREADY_EXISTS}'`,
  credential,
});

/** GET /public/credentials?acs_id= (200: the id is taken). */
export const acsIdOwner = type({ user_id: 'string', acs_id: 'string' });
export type AcsIdOwner = typeof acsIdOwner.infer;

/** PUT /public/credentials/{userId}/active|inactive and the same for all users. */
export const activationAnswer = type({ activated: 'boolean', users: 'number.integer >= 0' });
export type ActivationAnswer = typeof activationAnswer.infer;

/** Which server type each accreditation kind of the screens is (spec §3 Accreditation: qr, face, proof). */
export const ACCREDITATION_TYPES = {
  qr: 'qr',
  face: 'embedding',
  proof: 'enrolment_proof',
} as const satisfies Record<string, ServerCredentialType>;
export type AccreditationKind = keyof typeof ACCREDITATION_TYPES;

export const ACTION_TYPES = {
  access_qr: 'qr',
  access_face: 'embedding',
  access_proof: 'enrolment_proof',
} as const satisfies Record<RightAction, ServerCredentialType>;
