import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import type {
  ConfirmationResult,
  CreatedOnboarding,
  PortrayalResult,
  RegistrationReason,
} from '../../contract/api/onboarding';
import { type PortrayalFailure, REGISTRATION_REASONS } from '../../contract/domain/enrolment';
import type { ReviewFields } from '../../contract/domain/registration';
import {
  type EnrolmentEvent,
  type EnrolmentInput,
  type EnrolmentSettings,
  enrolmentMachine,
  type HomeScreen,
} from '../../machines/enrolment.machine';
import type { PortrayalResultOutput } from '../../machines/portrayal-result.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

const result: PortrayalResult = {
  document_info: {
    first_name: 'ANA',
    last_name: 'GARCIA',
    birth_date: '1990-04-01',
    id_number: '12345678Z',
    document_number: 'CAA000000',
    expiry_date: '2031-01-01',
    expedition_country: 'ESP',
    nationality: 'ESP',
    document_type: 'id_card',
  },
  selfie_authenticity_valid: true,
};

const reviewed: ReviewFields = { ...result.document_info, first_name: 'Ana' };

const PORTRAYAL_FAILURES: PortrayalFailure[] = [
  'blurred_image_error',
  'document_classification_error',
  'spoofed_image_error',
  'validas_error',
  'no_face_error',
  'multiple_faces_error',
  'timeout',
  'unknown',
];

const rejected = (reason: string): ConfirmationResult => ({
  result: { outcome: 'rejected', reason },
  user_id: null,
  qr_sid: null,
});

const done = (id: string, output?: unknown): EventObject =>
  ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const failed = (id: string, error: unknown): EventObject =>
  ({ type: `xstate.error.actor.${id}`, error }) as EventObject;

interface Variant {
  settings: Pick<EnrolmentSettings, 'showNextSteps' | 'onboardingSteps'>;
  identityProofing: boolean;
  lifeProofing: boolean;
  biometricQR: boolean;
  /** The document choices tried on RegisterDocuments. */
  documents: EnrolmentEvent[];
  /** Stop exploring once the legal terms are accepted (a variant only for the steps before them). */
  stepsOnly?: boolean;
  /** The person's home screen when they leave (the app's homeIs); Landing unless said. */
  home?: HomeScreen;
  /** Only start and leave (a variant for the other home screens). */
  leaveOnly?: boolean;
}

const ID_CARD: EnrolmentEvent = { type: 'document.chosen', documentType: 'id_card', documentCountry: 'es' };
const PASSPORT: EnrolmentEvent = { type: 'document.chosen', documentType: 'passport', documentCountry: null };
const NONE: EnrolmentEvent = { type: 'document.chosen', documentType: 'none', documentCountry: null };

function spec(variant: Variant): ModelSpec<typeof enrolmentMachine> {
  const created: CreatedOnboarding = {
    onboarding_id: 'o-1',
    identity_proofing: variant.identityProofing,
    life_proofing: variant.lifeProofing,
    biometric_qr: variant.biometricQR,
    supported_docs: ['id_card', 'passport', 'driving_license', 'none'],
  };
  const input: EnrolmentInput = {
    settings: { domain: 'gambling', biometricQR: variant.biometricQR, ...variant.settings },
    registerMode: 'auto',
    claims: { given_name: 'Ana' },
    email: 'ana@gambling.example',
  };
  const home = variant.home ?? 'Landing';
  const machine = enrolmentMachine.provide({
    guards: { homeIs: (_, params: { screen: HomeScreen }) => params.screen === home },
  });
  const leaveEvents: (EnrolmentEvent | EventObject)[] = [
    { type: 'onboarding.start' } satisfies EnrolmentEvent,
    done('createOnboarding', created),
    { type: 'onboarding.stop' } satisfies EnrolmentEvent,
  ];
  const onboardingEvents: (EnrolmentEvent | EventObject)[] = [
    { type: 'onboarding.start' } satisfies EnrolmentEvent,
    { type: 'onboarding.start', assistedEmail: 'jon@example.com' } satisfies EnrolmentEvent,
    { type: 'onboarding.continue', onboardingId: 'o-2' } satisfies EnrolmentEvent,
    done('loadOnboarding', { ...created, legal_terms_accepted: true }),
    done('loadOnboarding', { ...created, legal_terms_accepted: false }),
    failed('loadOnboarding', new Error('404')),
    done('createOnboarding', created),
    failed('createOnboarding', new Error('500')),
    { type: 'onboarding.cancel' } satisfies EnrolmentEvent,
    { type: 'onboarding.stop' } satisfies EnrolmentEvent,
    done('deleteOnboarding'),
    failed('deleteOnboarding', new Error('offline')),
    { type: 'steps.continue' } satisfies EnrolmentEvent,
    { type: 'legalTerms.accept', termsAccepted: true, legitimacyConfirmed: false } satisfies EnrolmentEvent,
    done('acceptLegalTerms'),
    failed('acceptLegalTerms', new Error('409')),
    done('fetchTerms', '# Condiciones'),
    failed('fetchTerms', new Error('404')),
    { type: 'locale.changed' } satisfies EnrolmentEvent,
    // Spec §2: a computer (or a browser that will not do) is told so by the app at any moment.
    { type: 'device.checked', ok: false } satisfies EnrolmentEvent,
    { type: 'device.checked', ok: true } satisfies EnrolmentEvent,
  ];
  const laterEvents: (EnrolmentEvent | EventObject)[] = [
    ...variant.documents,
    { type: 'selfie.start' } satisfies EnrolmentEvent,
    done('createPortrayal', { portrayal_id: 'p-1', life_proofing: variant.lifeProofing }),
    failed('createPortrayal', new Error('422')),
    // Each picture is an imageUpload child (its own model: image-upload.model.test.ts); here it ends.
    { type: 'image.captured', image: { ref: 'img-1' } } satisfies EnrolmentEvent,
    { type: 'upload.retry' } satisfies EnrolmentEvent,
    { type: 'challenge.retry' } satisfies EnrolmentEvent,
    done('imageUpload', { kind: 'obverse' }),
    done('portrayalResult', { status: 'done', result } satisfies PortrayalResultOutput),
    // The reference engine's face comparison: another person than the document's holder.
    done('portrayalResult', {
      status: 'done',
      result: { ...result, score_biometry: 0.3, score_biometry_valid: false },
    } satisfies PortrayalResultOutput),
    ...PORTRAYAL_FAILURES.map((failure) =>
      done('portrayalResult', { status: 'failed', failure } satisfies PortrayalResultOutput),
    ),
    failed('portrayalResult', new Error('crashed')),
    { type: 'scan.retry' } satisfies EnrolmentEvent,
    { type: 'result.retry' } satisfies EnrolmentEvent,
    { type: 'selfie.retry' } satisfies EnrolmentEvent,
    { type: 'review.confirm', fields: reviewed } satisfies EnrolmentEvent,
    { type: 'form.submit', email: 'ana@example.com', phone: '600000000' } satisfies EnrolmentEvent,
    { type: 'form.back' } satisfies EnrolmentEvent,
    done('confirmRegistration', {
      result: { outcome: 'accepted', reason: null },
      user_id: 'u-1',
      qr_sid: 'qr-1',
    } satisfies ConfirmationResult),
    done('confirmRegistration', {
      result: { outcome: 'accepted', reason: null },
      user_id: 'u-1',
      qr_sid: null,
    } satisfies ConfirmationResult),
    ...REGISTRATION_REASONS.map((reason: RegistrationReason) =>
      done('confirmRegistration', rejected(reason)),
    ),
    done('confirmRegistration', rejected('engine_on_fire')),
    failed('confirmRegistration', { code: 'email_already_in_use', errors: [{ field: 'email', code: 'x' }] }),
    { type: 'registration.retry' } satisfies EnrolmentEvent,
    done('fetchQrImage', new Blob(['png'], { type: 'image/png' })),
    failed('fetchQrImage', new Error('offline')),
    { type: 'qr.retry' } satisfies EnrolmentEvent,
    { type: 'enrolment.finish' } satisfies EnrolmentEvent,
  ];
  return {
    machine,
    input,
    events: () =>
      variant.leaveOnly
        ? leaveEvents
        : variant.stepsOnly
          ? onboardingEvents
          : [...onboardingEvents, ...laterEvents],
    serialize: (s) => ({
      value: s.value,
      document: s.context.documentType,
      device: s.context.deviceSupported,
    }),
    provide: (control) =>
      machine.provide({
        actors: {
          createOnboarding: control.actor('createOnboarding'),
          acceptLegalTerms: control.actor('acceptLegalTerms'),
          createPortrayal: control.actor('createPortrayal'),
          imageUpload: control.actor('imageUpload'),
          fetchQrImage: control.actor('fetchQrImage'),
          fetchTerms: control.actor('fetchTerms'),
          confirmRegistration: control.actor('confirmRegistration'),
          deleteOnboarding: control.actor('deleteOnboarding'),
          loadOnboarding: control.actor('loadOnboarding'),
          portrayalResult: control.actor('portrayalResult'),
        },
      }),
    limit: 20000,
    errorCodes: {
      expected: [
        'underage',
        'forbidden-list',
        'document-expired',
        'life-proofing-failed',
        'already-registered',
        'document-already-in-use',
        'enforcement-source-unavailable',
        'unknown',
        ...PORTRAYAL_FAILURES.filter((failure) => failure !== 'unknown'),
        'face_mismatch',
        // upload_failed, image_not_available and challenge_unavailable: image-upload.model.test.ts
        'qr_unavailable',
        'terms_unavailable',
      ],
      read: codesInMeta('errorCode'),
    },
  };
}

const variants: Variant[] = [
  // gambling as shipped: identity proofing, no intro screens, biometric QR
  {
    settings: { showNextSteps: false, onboardingSteps: false },
    identityProofing: true,
    lifeProofing: false,
    biometricQR: true,
    documents: [ID_CARD, PASSPORT, NONE],
  },
  // liveness proof instead of the selfie, after the IdentityProofingStep screen
  {
    settings: { showNextSteps: false, onboardingSteps: true },
    identityProofing: true,
    lifeProofing: true,
    biometricQR: true,
    documents: [ID_CARD, PASSPORT, NONE],
  },
  // NextSteps then IdentityProofingStep
  {
    settings: { showNextSteps: true, onboardingSteps: true },
    identityProofing: true,
    lifeProofing: false,
    biometricQR: true,
    documents: [],
    stepsOnly: true,
  },
  // OnlySelfieWithId: NextSteps, legal terms, RegisterSelfie; FinishRegister without a QR
  {
    settings: { showNextSteps: true, onboardingSteps: false },
    identityProofing: false,
    lifeProofing: false,
    biometricQR: false,
    documents: [],
  },
  // Leaving for each home screen other than Landing (src/auth/access.ts homeScreen)
  ...(['UserHome', 'MyAccreditations', 'MyVisits', 'PortalManagement'] as const).map(
    (home): Variant => ({
      settings: { showNextSteps: false, onboardingSteps: false },
      identityProofing: true,
      lifeProofing: false,
      biometricQR: true,
      documents: [],
      home,
      leaveOnly: true,
    }),
  ),
];

describe('enrolment machine (generated paths)', () => {
  it('covers every transition, registration failure and portrayal error on a real actor', async () => {
    const report = await coverMachine(variants.map(spec));
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
