import { assign, fromPromise, setup } from 'xstate';
import type {
  Challenge,
  ConfirmationResult,
  CreatedOnboarding,
  CreatedPortrayal,
  DocumentChoice,
  ImageKind,
  PortrayalResult,
  RegistrationPayload,
  RegistrationReason,
} from '../src/api/contract/onboarding';
import {
  hasReverse,
  isCompleteDocumentChoice,
  normaliseDocumentCountry,
  portrayalTypeOf,
} from '../src/domain/documents';
import {
  type EnrolmentRegisterType,
  type EnrolmentStep,
  legalTermsAccepted,
  nextEnrolmentStep,
  type PortrayalFailure,
  type RegisterMode,
  registerTypeOf,
  stepAfterNextSteps,
} from '../src/domain/enrolment';
import {
  buildRegistrationPayload,
  EMPTY_FORM,
  type OcrAdaptation,
  ocrAdaptations,
  type RegisterFormData,
  type ReviewFields,
  reviewDraft,
} from '../src/domain/registration';
import { type PortrayalResultOutput, portrayalResultMachine } from './portrayal-result.machine';

// Self-enrolment (spec §4 "Enrolment flow"): not enrolled → onboarding started → legal terms accepted →
// document chosen → identity portrayal started → images sent → result polled → review → optional form →
// confirmed → enrolled, with every registration failure reason of spec §8 and every portrayal result error
// as a state of its own. The calls, navigation and storage are named effects that src/app provides.
//
// Persistence and resume (spec §3: onboarding state persists). The context is plain JSON: captured pictures
// are never in it, only a CapturedImage key into an in-memory image store that the app keeps beside the
// actor (a Blob cannot be serialised, and a photo should not outlive the tab in local storage). Every screen
// where the person may stop runs `persist`, which the runtime implements as
//   ({ self }) => queueMicrotask(() => save(self.getPersistedSnapshot()))
// (entry actions run before the new snapshot is committed, hence the microtask); none of those states has an
// invoked actor, so restoring with createActor(enrolmentMachine, { snapshot }) restarts nothing and the person
// is back on the screen they left. After a reload the image store is empty: a picture that was waiting to be
// re-sent is then reported by uploadImage as image_not_available and the person takes it again.

/** A captured picture (or liveness proof): its key in the app's in-memory image store. */
export interface CapturedImage {
  ref: string;
}

/** The tenant settings enrolment needs (spec §3 Tenant settings). */
export interface EnrolmentSettings {
  domain: string;
  showNextSteps: boolean;
  onboardingSteps: boolean;
  biometricQR: boolean;
}

export interface EnrolmentInput {
  settings: EnrolmentSettings;
  /** Spec §4: assisted when the person holds post_onboardings_assisted (src/auth/access.ts registerMode). */
  registerMode: RegisterMode;
  /** Token claims copied into enrolment data (spec §6). */
  claims: Record<string, unknown> | null;
  /** The signed-in person's email. */
  email: string | null;
  /** Assisted mode: the account and email of the person being registered. */
  assistedUserId?: string | null;
  assistedEmail?: string | null;
}

/** An onboarding started elsewhere (on a computer) that this device continues (after a user code). */
export interface ContinuedOnboarding extends CreatedOnboarding {
  legal_terms_accepted: boolean;
}

export interface CreateOnboardingInput {
  mode: RegisterMode;
  userId: string | null;
  userData: Record<string, unknown> | null;
}

export interface CreatePortrayalInput {
  onboardingId: string;
  portrayalType: 'document' | 'selfie';
  documentType: DocumentChoice;
  documentCountry: string | null;
}

export interface UploadImageInput {
  portrayalId: string;
  kind: ImageKind;
  image: CapturedImage;
  /** The liveness challenge the proof answers (kind lifeproof). */
  challengeId: string | null;
}

/** What uploadImage rejects with; image_not_available when the store no longer has the picture. */
export interface UploadError {
  code?: string;
}

export interface ConfirmRegistrationInput {
  onboardingId: string;
  portrayalId: string;
  payload: RegistrationPayload;
  ocrAdaptations: OcrAdaptation[];
}

/** A confirmation the server refused without a registration reason (field errors, network). */
export interface ConfirmationError {
  code: string | null;
  errors: { field: string; code: string }[];
}

export interface EnrolmentContext {
  settings: EnrolmentSettings;
  registerMode: RegisterMode;
  claims: Record<string, unknown> | null;
  sessionEmail: string | null;
  assistedUserId: string | null;
  assistedEmail: string | null;
  onboardingId: string | null;
  identityProofing: boolean;
  lifeProofing: boolean;
  biometricQR: boolean;
  supportedDocs: DocumentChoice[];
  registerType: EnrolmentRegisterType | null;
  documentType: DocumentChoice | null;
  documentCountry: string | null;
  identityPortrayalId: string | null;
  /** The picture being sent, kept until the upload succeeds so that a failed upload can be re-sent. */
  pendingImage: CapturedImage | null;
  uploadError: string | null;
  challenge: Challenge | null;
  result: PortrayalResult | null;
  scanFailure: PortrayalFailure | null;
  /** The review: the document reading (with claims) until confirmed, then what the person confirmed. */
  review: ReviewFields | null;
  ocrAdaptations: OcrAdaptation[];
  form: RegisterFormData;
  /** The registration payload last sent (re-sent by registration.retry). */
  confirmData: RegistrationPayload | null;
  confirmationError: ConfirmationError | null;
  registration: {
    outcome: string;
    reason: string | null;
    userId: string | null;
    qrSid: string | null;
  } | null;
  enrolled: boolean;
}

export type EnrolmentEvent =
  /** Landing's Start button; in assisted mode, with the email of the person being registered. */
  | { type: 'onboarding.start'; assistedEmail?: string }
  /** Continue, on this device, the onboarding another device started (DeviceDetect, after a user code). */
  | { type: 'onboarding.continue'; onboardingId: string }
  /** Leave and delete the onboarding on the server. */
  | { type: 'onboarding.cancel' }
  /** Leave, forgetting the onboarding here (it stays on the server). */
  | { type: 'onboarding.stop' }
  /** NextSteps and IdentityProofingStep: go on. */
  | { type: 'steps.continue' }
  | { type: 'legalTerms.accept'; termsAccepted: boolean; legitimacyConfirmed: boolean }
  | { type: 'document.chosen'; documentType: DocumentChoice; documentCountry: string | null }
  /** RegisterSelfie: take the selfie. */
  | { type: 'selfie.start' }
  /** A capture screen has its picture (in the image store under image.ref). */
  | { type: 'image.captured'; image: CapturedImage }
  | { type: 'upload.retry' }
  | { type: 'challenge.retry' }
  | { type: 'scan.retry' }
  | { type: 'review.confirm'; fields: ReviewFields }
  | { type: 'form.submit'; email?: string; phone?: string; nie?: string }
  | { type: 'form.back' }
  | { type: 'registration.retry' }
  | { type: 'enrolment.finish' };

/** Spec §3 onboarding client state: the same facts under the names the spec gives them. */
export interface OnboardingClientState {
  onboardingId: string | null;
  identityPortrayalId: string | null;
  documentType: DocumentChoice | null;
  documentCountry: string | null;
  registerType: EnrolmentRegisterType | null;
  registerMode: RegisterMode;
  lifeProofing: boolean;
  biometricQR: boolean;
  assistedUserId: string | null;
  assistedEmail: string | null;
  supportedDocs: DocumentChoice[];
  confirmData: RegistrationPayload | null;
}

export function onboardingClientState(context: EnrolmentContext): OnboardingClientState {
  return {
    onboardingId: context.onboardingId,
    identityPortrayalId: context.identityPortrayalId,
    documentType: context.documentType,
    documentCountry: context.documentCountry,
    registerType: context.registerType,
    registerMode: context.registerMode,
    lifeProofing: context.lifeProofing,
    biometricQR: context.biometricQR,
    assistedUserId: context.assistedUserId,
    assistedEmail: context.assistedEmail,
    supportedDocs: context.supportedDocs,
    confirmData: context.confirmData,
  };
}

/** What the server says of an onboarding (spec §7 POST /internal/onboardings). */
function onboardingFacts(onboarding: CreatedOnboarding) {
  return {
    onboardingId: onboarding.onboarding_id,
    identityProofing: onboarding.identity_proofing,
    lifeProofing: onboarding.life_proofing,
    biometricQR: onboarding.biometric_qr,
    supportedDocs: onboarding.supported_docs,
    registerType: registerTypeOf(onboarding.identity_proofing),
  } satisfies Partial<EnrolmentContext>;
}

/** Everything an onboarding adds to the context, as before it started. */
function noOnboarding(context: EnrolmentContext) {
  return {
    onboardingId: null,
    identityProofing: false,
    lifeProofing: false,
    biometricQR: context.settings.biometricQR,
    supportedDocs: [],
    registerType: null,
    documentType: null,
    documentCountry: null,
    identityPortrayalId: null,
    pendingImage: null,
    uploadError: null,
    challenge: null,
    result: null,
    scanFailure: null,
    review: null,
    ocrAdaptations: [],
    form: EMPTY_FORM,
    confirmData: null,
    confirmationError: null,
    registration: null,
  } satisfies Partial<EnrolmentContext>;
}

function uploadOf(context: EnrolmentContext, kind: ImageKind): UploadImageInput {
  return {
    portrayalId: context.identityPortrayalId ?? '',
    kind,
    image: context.pendingImage ?? { ref: '' },
    challengeId: kind === 'lifeproof' ? (context.challenge?.challenge_id ?? null) : null,
  };
}

function confirmationErrorOf(error: unknown): ConfirmationError {
  const problem = (error ?? {}) as { code?: unknown; errors?: unknown };
  const errors = Array.isArray(problem.errors)
    ? problem.errors.filter(
        (item): item is { field: string; code: string } =>
          typeof item?.field === 'string' && typeof item?.code === 'string',
      )
    : [];
  return { code: typeof problem.code === 'string' ? problem.code : null, errors };
}

const isComplete = (fields: ReviewFields) =>
  [fields.first_name, fields.last_name, fields.birth_date, fields.document_number].every(
    (value) => typeof value === 'string' && value.trim() !== '',
  );

export const enrolmentMachine = setup({
  types: {
    context: {} as EnrolmentContext,
    events: {} as EnrolmentEvent,
    input: {} as EnrolmentInput,
  },
  actors: {
    // Placeholders: src/app provides the real calls (src/api onboardings and portrayals).
    createOnboarding: fromPromise<CreatedOnboarding, CreateOnboardingInput>(async () => {
      throw new Error('createOnboarding is provided by the app');
    }),
    acceptLegalTerms: fromPromise<void, { onboardingId: string }>(async () => {
      throw new Error('acceptLegalTerms is provided by the app');
    }),
    createPortrayal: fromPromise<CreatedPortrayal, CreatePortrayalInput>(async () => {
      throw new Error('createPortrayal is provided by the app');
    }),
    uploadImage: fromPromise<void, UploadImageInput>(async () => {
      throw new Error('uploadImage is provided by the app');
    }),
    requestChallenge: fromPromise<Challenge, { length: number; expiration: number }>(async () => {
      throw new Error('requestChallenge is provided by the app');
    }),
    /**
     * Resolves with the confirmation result, also when the server refuses with a registration reason (a 409 or
     * 503 problem carries result, user_id and qr_sid); rejects only without one (field errors, network).
     */
    confirmRegistration: fromPromise<ConfirmationResult, ConfirmRegistrationInput>(async () => {
      throw new Error('confirmRegistration is provided by the app');
    }),
    deleteOnboarding: fromPromise<void, { onboardingId: string }>(async () => {
      throw new Error('deleteOnboarding is provided by the app');
    }),
    loadOnboarding: fromPromise<ContinuedOnboarding, { onboardingId: string }>(async () => {
      throw new Error('loadOnboarding is provided by the app');
    }),
    portrayalResult: portrayalResultMachine,
  },
  actions: {
    /** Save getPersistedSnapshot() once this step has settled (see the comment at the top). */
    persist: () => {},
    /** Remove the saved onboarding and the captured pictures. */
    forgetOnboarding: () => {},
    goHome: () => {},
    /** The session is enrolled now (session.updated). */
    markEnrolled: () => {},
  },
  guards: {
    nextStepIs: ({ context }, params: { step: EnrolmentStep }) =>
      nextEnrolmentStep(context.settings, context.identityProofing) === params.step,
    stepAfterNextStepsIs: ({ context }, params: { step: EnrolmentStep }) =>
      stepAfterNextSteps(context.settings, context.identityProofing) === params.step,
    identityProofingOn: ({ context }) => context.identityProofing,
    lifeProofingOn: ({ context }) => context.lifeProofing,
    legalTermsAlreadyAccepted: (_, params: { onboarding: ContinuedOnboarding }) =>
      params.onboarding.legal_terms_accepted,
    acceptsLegalTerms: ({ context }, params: { termsAccepted: boolean; legitimacyConfirmed: boolean }) =>
      legalTermsAccepted(context.registerMode, params),
    choosesSelfieOnly: ({ context }, params: { documentType: DocumentChoice }) =>
      params.documentType === 'none' && isCompleteDocumentChoice(context.supportedDocs, 'none', null),
    isCompleteDocumentChoice: (
      { context },
      params: { documentType: DocumentChoice; documentCountry: string | null },
    ) => isCompleteDocumentChoice(context.supportedDocs, params.documentType, params.documentCountry),
    needsDocumentImages: ({ context }) => context.documentType !== null && context.documentType !== 'none',
    hasReverse: ({ context }) => context.documentType !== null && hasReverse(context.documentType),
    isImageNotAvailable: (_, params: { error: unknown }) =>
      (params.error as UploadError | null)?.code === 'image_not_available',
    portrayalFound: (_, params: { output: PortrayalResultOutput }) => params.output.status === 'done',
    portrayalFailedWith: (_, params: { output: PortrayalResultOutput; failure: PortrayalFailure }) =>
      params.output.status === 'failed' && params.output.failure === params.failure,
    isCompleteReview: (_, params: { fields: ReviewFields }) => isComplete(params.fields),
    acceptedWithQr: ({ context }, params: { confirmation: ConfirmationResult }) =>
      params.confirmation.result.outcome === 'accepted' &&
      params.confirmation.qr_sid !== null &&
      context.biometricQR,
    accepted: (_, params: { confirmation: ConfirmationResult }) =>
      params.confirmation.result.outcome === 'accepted',
    rejectedFor: (_, params: { confirmation: ConfirmationResult; reason: RegistrationReason }) =>
      params.confirmation.result.outcome !== 'accepted' &&
      params.confirmation.result.reason === params.reason,
  },
}).createMachine({
  id: 'enrolment',
  context: ({ input }) => ({
    settings: input.settings,
    registerMode: input.registerMode,
    claims: input.claims,
    sessionEmail: input.email,
    assistedUserId: input.assistedUserId ?? null,
    assistedEmail: input.assistedEmail ?? null,
    onboardingId: null,
    identityProofing: false,
    lifeProofing: false,
    biometricQR: input.settings.biometricQR,
    supportedDocs: [],
    registerType: null,
    documentType: null,
    documentCountry: null,
    identityPortrayalId: null,
    pendingImage: null,
    uploadError: null,
    challenge: null,
    result: null,
    scanFailure: null,
    review: null,
    ocrAdaptations: [],
    form: EMPTY_FORM,
    confirmData: null,
    confirmationError: null,
    registration: null,
    enrolled: false,
  }),
  initial: 'notEnrolled',
  on: {
    'onboarding.continue': {
      target: '.continuingOnboarding',
      actions: assign(({ context, event }) => ({
        ...noOnboarding(context),
        onboardingId: event.onboardingId,
      })),
    },
  },
  states: {
    notEnrolled: {
      meta: { screen: 'Landing' },
      on: {
        'onboarding.start': {
          target: 'startingOnboarding',
          actions: assign({
            assistedEmail: ({ context, event }) => event.assistedEmail?.trim() || context.assistedEmail,
          }),
        },
      },
    },
    startingOnboarding: {
      meta: { screen: 'Landing' },
      tags: ['loading'],
      invoke: {
        id: 'createOnboarding',
        src: 'createOnboarding',
        input: ({ context }) => ({
          mode: context.registerMode,
          userId: context.registerMode === 'assisted' ? context.assistedUserId : null,
          userData:
            context.registerMode === 'assisted' && context.assistedEmail
              ? { email: context.assistedEmail }
              : null,
        }),
        onDone: { target: 'onboarding', actions: assign(({ event }) => onboardingFacts(event.output)) },
        // The API client has told the person; Start tries again.
        onError: 'notEnrolled',
      },
    },
    continuingOnboarding: {
      tags: ['loading'],
      invoke: {
        id: 'loadOnboarding',
        src: 'loadOnboarding',
        input: ({ context }) => ({ onboardingId: context.onboardingId ?? '' }),
        onDone: [
          {
            guard: {
              type: 'legalTermsAlreadyAccepted',
              params: ({ event }) => ({ onboarding: event.output }),
            },
            target: 'onboarding.legalTermsDone',
            actions: assign(({ event }) => onboardingFacts(event.output)),
          },
          { target: 'onboarding.legalTerms', actions: assign(({ event }) => onboardingFacts(event.output)) },
        ],
        onError: { target: 'notEnrolled', actions: assign(({ context }) => noOnboarding(context)) },
      },
    },
    onboarding: {
      on: {
        'onboarding.cancel': '#enrolment.cancelling',
        'onboarding.stop': {
          target: '#enrolment.notEnrolled',
          actions: [assign(({ context }) => noOnboarding(context)), 'forgetOnboarding', 'goHome'],
        },
      },
      initial: 'routing',
      states: {
        // Spec §2, the step after Start; the legal terms come before the document or selfie step.
        routing: {
          always: [
            { guard: { type: 'nextStepIs', params: { step: 'NextSteps' } }, target: 'nextSteps' },
            {
              guard: { type: 'nextStepIs', params: { step: 'IdentityProofingStep' } },
              target: 'identityProofingStep',
            },
            { target: 'legalTerms' },
          ],
        },
        nextSteps: {
          meta: { screen: 'NextSteps' },
          entry: 'persist',
          on: {
            'steps.continue': [
              {
                guard: { type: 'stepAfterNextStepsIs', params: { step: 'IdentityProofingStep' } },
                target: 'identityProofingStep',
              },
              { target: 'legalTerms' },
            ],
          },
        },
        identityProofingStep: {
          meta: { screen: 'IdentityProofingStep' },
          entry: 'persist',
          on: { 'steps.continue': 'legalTerms' },
        },
        legalTerms: {
          meta: { screen: 'PrivacyOnboarding' },
          entry: 'persist',
          on: {
            'legalTerms.accept': {
              guard: {
                type: 'acceptsLegalTerms',
                params: ({ event }) => ({
                  termsAccepted: event.termsAccepted,
                  legitimacyConfirmed: event.legitimacyConfirmed,
                }),
              },
              target: 'acceptingLegalTerms',
            },
          },
        },
        acceptingLegalTerms: {
          meta: { screen: 'PrivacyOnboarding' },
          tags: ['loading'],
          invoke: {
            id: 'acceptLegalTerms',
            src: 'acceptLegalTerms',
            input: ({ context }) => ({ onboardingId: context.onboardingId ?? '' }),
            onDone: 'legalTermsDone',
            onError: 'legalTerms',
          },
        },
        legalTermsDone: {
          always: [
            { guard: 'identityProofingOn', target: 'choosingDocument' },
            // OnlySelfieWithId: a selfie-only portrayal.
            { target: 'registerSelfie', actions: assign({ documentType: 'none', documentCountry: null }) },
          ],
        },
        choosingDocument: {
          meta: { screen: 'RegisterDocuments' },
          entry: 'persist',
          on: {
            'document.chosen': [
              {
                guard: {
                  type: 'choosesSelfieOnly',
                  params: ({ event }) => ({ documentType: event.documentType }),
                },
                target: 'registerSelfie',
                actions: assign({ documentType: 'none', documentCountry: null }),
              },
              {
                guard: {
                  type: 'isCompleteDocumentChoice',
                  params: ({ event }) => ({
                    documentType: event.documentType,
                    documentCountry: event.documentCountry,
                  }),
                },
                target: 'startingPortrayal',
                actions: assign({
                  documentType: ({ event }) => event.documentType,
                  documentCountry: ({ event }) =>
                    normaliseDocumentCountry(event.documentType, event.documentCountry),
                }),
              },
            ],
          },
        },
        registerSelfie: {
          meta: { screen: 'RegisterSelfie' },
          entry: 'persist',
          on: { 'selfie.start': 'startingPortrayal' },
        },
        startingPortrayal: {
          tags: ['loading'],
          invoke: {
            id: 'createPortrayal',
            src: 'createPortrayal',
            input: ({ context }) => ({
              onboardingId: context.onboardingId ?? '',
              portrayalType: portrayalTypeOf(context.documentType ?? 'none'),
              documentType: context.documentType ?? 'none',
              documentCountry: context.documentCountry,
            }),
            onDone: {
              target: 'images',
              actions: assign({
                identityPortrayalId: ({ event }) => event.output.portrayal_id,
                lifeProofing: ({ event }) => event.output.life_proofing,
              }),
            },
            onError: [
              { guard: 'needsDocumentImages', target: 'choosingDocument' },
              { target: 'registerSelfie' },
            ],
          },
        },
        images: {
          initial: 'routing',
          states: {
            routing: {
              always: [
                { guard: 'needsDocumentImages', target: 'obverse' },
                { guard: 'lifeProofingOn', target: 'lifeproof' },
                { target: 'selfie' },
              ],
            },
            obverse: {
              meta: { screen: 'DocumentScan', side: 'obverse' },
              initial: 'capturing',
              states: {
                capturing: {
                  entry: 'persist',
                  on: {
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
                uploading: {
                  tags: ['loading'],
                  invoke: {
                    id: 'uploadImage',
                    src: 'uploadImage',
                    input: ({ context }) => uploadOf(context, 'obverse'),
                    onDone: [
                      {
                        guard: 'hasReverse',
                        target: '#enrolment.onboarding.images.reverse',
                        actions: assign({ pendingImage: null }),
                      },
                      {
                        guard: 'lifeProofingOn',
                        target: '#enrolment.onboarding.images.lifeproof',
                        actions: assign({ pendingImage: null }),
                      },
                      {
                        target: '#enrolment.onboarding.images.selfie',
                        actions: assign({ pendingImage: null }),
                      },
                    ],
                    onError: [
                      {
                        guard: {
                          type: 'isImageNotAvailable',
                          params: ({ event }) => ({ error: event.error }),
                        },
                        target: 'imageNotAvailable',
                        actions: assign({ pendingImage: null, uploadError: 'image_not_available' }),
                      },
                      {
                        target: 'uploadFailed',
                        actions: assign({
                          uploadError: ({ event }) =>
                            (event.error as UploadError | null)?.code ?? 'upload_failed',
                        }),
                      },
                    ],
                  },
                },
                uploadFailed: {
                  meta: { screen: 'DocumentScan', side: 'obverse', uploadError: 'upload_failed' },
                  entry: 'persist',
                  on: {
                    'upload.retry': 'uploading',
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
                imageNotAvailable: {
                  meta: { screen: 'DocumentScan', side: 'obverse', uploadError: 'image_not_available' },
                  entry: 'persist',
                  on: {
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
              },
            },
            reverse: {
              meta: { screen: 'DocumentScan', side: 'reverse' },
              initial: 'capturing',
              states: {
                capturing: {
                  entry: 'persist',
                  on: {
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
                uploading: {
                  tags: ['loading'],
                  invoke: {
                    id: 'uploadImage',
                    src: 'uploadImage',
                    input: ({ context }) => uploadOf(context, 'reverse'),
                    onDone: [
                      {
                        guard: 'lifeProofingOn',
                        target: '#enrolment.onboarding.images.lifeproof',
                        actions: assign({ pendingImage: null }),
                      },
                      {
                        target: '#enrolment.onboarding.images.selfie',
                        actions: assign({ pendingImage: null }),
                      },
                    ],
                    onError: [
                      {
                        guard: {
                          type: 'isImageNotAvailable',
                          params: ({ event }) => ({ error: event.error }),
                        },
                        target: 'imageNotAvailable',
                        actions: assign({ pendingImage: null, uploadError: 'image_not_available' }),
                      },
                      {
                        target: 'uploadFailed',
                        actions: assign({
                          uploadError: ({ event }) =>
                            (event.error as UploadError | null)?.code ?? 'upload_failed',
                        }),
                      },
                    ],
                  },
                },
                uploadFailed: {
                  meta: { screen: 'DocumentScan', side: 'reverse', uploadError: 'upload_failed' },
                  entry: 'persist',
                  on: {
                    'upload.retry': 'uploading',
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
                imageNotAvailable: {
                  meta: { screen: 'DocumentScan', side: 'reverse', uploadError: 'image_not_available' },
                  entry: 'persist',
                  on: {
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
              },
            },
            selfie: {
              meta: { screen: 'TakeSelfie' },
              initial: 'capturing',
              states: {
                capturing: {
                  entry: 'persist',
                  on: {
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
                uploading: {
                  tags: ['loading'],
                  invoke: {
                    id: 'uploadImage',
                    src: 'uploadImage',
                    input: ({ context }) => uploadOf(context, 'selfie'),
                    onDone: {
                      target: '#enrolment.onboarding.result',
                      actions: assign({ pendingImage: null }),
                    },
                    onError: [
                      {
                        guard: {
                          type: 'isImageNotAvailable',
                          params: ({ event }) => ({ error: event.error }),
                        },
                        target: 'imageNotAvailable',
                        actions: assign({ pendingImage: null, uploadError: 'image_not_available' }),
                      },
                      {
                        target: 'uploadFailed',
                        actions: assign({
                          uploadError: ({ event }) =>
                            (event.error as UploadError | null)?.code ?? 'upload_failed',
                        }),
                      },
                    ],
                  },
                },
                uploadFailed: {
                  meta: { screen: 'TakeSelfie', uploadError: 'upload_failed' },
                  entry: 'persist',
                  on: {
                    'upload.retry': 'uploading',
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
                imageNotAvailable: {
                  meta: { screen: 'TakeSelfie', uploadError: 'image_not_available' },
                  entry: 'persist',
                  on: {
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
              },
            },
            lifeproof: {
              meta: { screen: 'TakeSelfieAlive' },
              initial: 'requestingChallenge',
              states: {
                requestingChallenge: {
                  tags: ['loading'],
                  invoke: {
                    id: 'requestChallenge',
                    src: 'requestChallenge',
                    // Three actions, valid for one minute.
                    input: { length: 3, expiration: 60 },
                    onDone: {
                      target: 'capturing',
                      actions: assign({ challenge: ({ event }) => event.output }),
                    },
                    onError: 'challengeFailed',
                  },
                },
                challengeFailed: {
                  meta: { screen: 'TakeSelfieAlive', challengeError: 'challenge_unavailable' },
                  on: { 'challenge.retry': 'requestingChallenge' },
                },
                capturing: {
                  entry: 'persist',
                  on: {
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
                uploading: {
                  tags: ['loading'],
                  invoke: {
                    id: 'uploadImage',
                    src: 'uploadImage',
                    input: ({ context }) => uploadOf(context, 'lifeproof'),
                    onDone: {
                      target: '#enrolment.onboarding.result',
                      actions: assign({ pendingImage: null }),
                    },
                    onError: [
                      {
                        guard: {
                          type: 'isImageNotAvailable',
                          params: ({ event }) => ({ error: event.error }),
                        },
                        target: 'imageNotAvailable',
                        actions: assign({ pendingImage: null, uploadError: 'image_not_available' }),
                      },
                      {
                        target: 'uploadFailed',
                        actions: assign({
                          uploadError: ({ event }) =>
                            (event.error as UploadError | null)?.code ?? 'upload_failed',
                        }),
                      },
                    ],
                  },
                },
                uploadFailed: {
                  meta: { screen: 'TakeSelfieAlive', uploadError: 'upload_failed' },
                  entry: 'persist',
                  on: {
                    'upload.retry': 'uploading',
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
                imageNotAvailable: {
                  meta: { screen: 'TakeSelfieAlive', uploadError: 'image_not_available' },
                  entry: 'persist',
                  on: {
                    'image.captured': {
                      target: 'uploading',
                      actions: assign({ pendingImage: ({ event }) => event.image, uploadError: null }),
                    },
                  },
                },
              },
            },
          },
        },
        // The review screen waits for the result: polled every 2 s, at most 16 s (portrayal-result.machine).
        result: {
          meta: { screen: 'ReviewRegister' },
          tags: ['loading'],
          invoke: {
            id: 'portrayalResult',
            src: 'portrayalResult',
            input: ({ context }) => ({ portrayalId: context.identityPortrayalId ?? '' }),
            onDone: [
              {
                guard: { type: 'portrayalFound', params: ({ event }) => ({ output: event.output }) },
                target: 'review',
                actions: assign({
                  result: ({ event }) => (event.output.status === 'done' ? event.output.result : null),
                  review: ({ context, event }) =>
                    reviewDraft(
                      event.output.status === 'done' ? event.output.result.document_info : {},
                      context.claims,
                    ),
                  scanFailure: null,
                }),
              },
              {
                guard: {
                  type: 'portrayalFailedWith',
                  params: ({ event }) => ({ output: event.output, failure: 'blurred_image_error' }),
                },
                target: 'scanFailed.blurred',
                actions: assign({ scanFailure: 'blurred_image_error' }),
              },
              {
                guard: {
                  type: 'portrayalFailedWith',
                  params: ({ event }) => ({ output: event.output, failure: 'document_classification_error' }),
                },
                target: 'scanFailed.classification',
                actions: assign({ scanFailure: 'document_classification_error' }),
              },
              {
                guard: {
                  type: 'portrayalFailedWith',
                  params: ({ event }) => ({ output: event.output, failure: 'spoofed_image_error' }),
                },
                target: 'scanFailed.spoofed',
                actions: assign({ scanFailure: 'spoofed_image_error' }),
              },
              {
                guard: {
                  type: 'portrayalFailedWith',
                  params: ({ event }) => ({ output: event.output, failure: 'validas_error' }),
                },
                target: 'scanFailed.validation',
                actions: assign({ scanFailure: 'validas_error' }),
              },
              {
                guard: {
                  type: 'portrayalFailedWith',
                  params: ({ event }) => ({ output: event.output, failure: 'timeout' }),
                },
                target: 'scanFailed.timeout',
                actions: assign({ scanFailure: 'timeout' }),
              },
              { target: 'scanFailed.unknown', actions: assign({ scanFailure: 'unknown' }) },
            ],
            onError: { target: 'scanFailed.unknown', actions: assign({ scanFailure: 'unknown' }) },
          },
        },
        // Spec §8 document scan failure screens; scan.retry takes the pictures again for the same onboarding
        // and portrayal (the server computes a new result for new pictures).
        scanFailed: {
          entry: 'persist',
          on: {
            'scan.retry': { target: 'images', actions: assign({ scanFailure: null, result: null }) },
          },
          initial: 'unknown',
          states: {
            classification: {
              meta: {
                screen: 'DocumentScan',
                scanError: 'classification',
                errorCode: 'document_classification_error',
              },
            },
            blurred: {
              meta: { screen: 'DocumentScan', scanError: 'blurred', errorCode: 'blurred_image_error' },
            },
            spoofed: {
              meta: { screen: 'DocumentScan', scanError: 'analysis', errorCode: 'spoofed_image_error' },
            },
            validation: {
              meta: { screen: 'DocumentScan', scanError: 'analysis', errorCode: 'validas_error' },
            },
            unknown: {
              meta: { screen: 'DocumentScan', scanError: 'unknown', errorCode: 'unknown' },
            },
            timeout: {
              meta: { screen: 'DocumentScan', scanError: 'undefined', errorCode: 'timeout' },
            },
          },
        },
        review: {
          meta: { screen: 'ReviewRegister' },
          entry: 'persist',
          on: {
            'review.confirm': {
              guard: { type: 'isCompleteReview', params: ({ event }) => ({ fields: event.fields }) },
              target: 'registerForm',
              actions: assign({
                ocrAdaptations: ({ context, event }) =>
                  ocrAdaptations(context.result?.document_info ?? {}, event.fields),
                review: ({ event }) => event.fields,
              }),
            },
          },
        },
        registerForm: {
          meta: { screen: 'RegisterForm' },
          entry: 'persist',
          on: {
            'form.submit': {
              target: 'confirming',
              actions: [
                assign({
                  form: ({ event }) => ({
                    email: event.email ?? '',
                    phone: event.phone ?? '',
                    nie: event.nie ?? '',
                  }),
                  confirmationError: null,
                }),
                assign({ confirmData: ({ context }) => payloadOf(context) }),
              ],
            },
            'form.back': 'review',
          },
        },
        // No screen of its own: the form (or the retryable failure) stays shown while the server decides.
        confirming: {
          tags: ['loading'],
          invoke: {
            id: 'confirmRegistration',
            src: 'confirmRegistration',
            input: ({ context }) => ({
              onboardingId: context.onboardingId ?? '',
              portrayalId: context.identityPortrayalId ?? '',
              payload: context.confirmData ?? payloadOf(context),
              ocrAdaptations: context.ocrAdaptations,
            }),
            onDone: [
              {
                guard: {
                  type: 'acceptedWithQr',
                  params: ({ event }) => ({ confirmation: event.output }),
                },
                target: '#enrolment.enrolled.withQr',
                actions: assign({
                  registration: ({ event }) => registrationOf(event.output),
                  enrolled: true,
                }),
              },
              {
                guard: { type: 'accepted', params: ({ event }) => ({ confirmation: event.output }) },
                target: '#enrolment.enrolled.withoutQr',
                actions: assign({
                  registration: ({ event }) => registrationOf(event.output),
                  enrolled: true,
                }),
              },
              {
                guard: {
                  type: 'rejectedFor',
                  params: ({ event }) => ({ confirmation: event.output, reason: 'underaged' }),
                },
                target: 'registrationFailed.underage',
                actions: assign({ registration: ({ event }) => registrationOf(event.output) }),
              },
              {
                guard: {
                  type: 'rejectedFor',
                  params: ({ event }) => ({ confirmation: event.output, reason: 'user_interdicted' }),
                },
                target: 'registrationFailed.forbiddenList',
                actions: assign({ registration: ({ event }) => registrationOf(event.output) }),
              },
              {
                guard: {
                  type: 'rejectedFor',
                  params: ({ event }) => ({ confirmation: event.output, reason: 'document_expired' }),
                },
                target: 'registrationFailed.documentExpired',
                actions: assign({ registration: ({ event }) => registrationOf(event.output) }),
              },
              {
                guard: {
                  type: 'rejectedFor',
                  params: ({ event }) => ({ confirmation: event.output, reason: 'life_proofing_failed' }),
                },
                target: 'registrationFailed.lifeProofingFailed',
                actions: assign({ registration: ({ event }) => registrationOf(event.output) }),
              },
              {
                guard: {
                  type: 'rejectedFor',
                  params: ({ event }) => ({ confirmation: event.output, reason: 'user_already_registered' }),
                },
                target: 'registrationFailed.alreadyRegistered',
                actions: assign({ registration: ({ event }) => registrationOf(event.output) }),
              },
              {
                guard: {
                  type: 'rejectedFor',
                  params: ({ event }) => ({ confirmation: event.output, reason: 'document_already_exists' }),
                },
                target: 'registrationFailed.documentAlreadyInUse',
                actions: assign({ registration: ({ event }) => registrationOf(event.output) }),
              },
              {
                guard: {
                  type: 'rejectedFor',
                  params: ({ event }) => ({
                    confirmation: event.output,
                    reason: 'enforcement_source_unavailable',
                  }),
                },
                target: 'registrationFailed.enforcementSourceUnavailable',
                actions: assign({ registration: ({ event }) => registrationOf(event.output) }),
              },
              {
                target: 'registrationFailed.unknown',
                actions: assign({ registration: ({ event }) => registrationOf(event.output) }),
              },
            ],
            // No registration reason (a field refused, the network): back to the form to correct or resend.
            onError: {
              target: 'registerForm',
              actions: assign({ confirmationError: ({ event }) => confirmationErrorOf(event.error) }),
            },
          },
        },
        // Spec §8 registration failures, each with its code on the finish-with-error screen.
        registrationFailed: {
          entry: 'persist',
          initial: 'unknown',
          states: {
            underage: {
              meta: { screen: 'FinishRegisterWithError', errorCode: 'underage' },
            },
            forbiddenList: {
              meta: { screen: 'FinishRegisterWithError', errorCode: 'forbidden-list' },
            },
            documentExpired: {
              meta: { screen: 'FinishRegisterWithError', errorCode: 'document-expired' },
            },
            lifeProofingFailed: {
              meta: { screen: 'FinishRegisterWithError', errorCode: 'life-proofing-failed' },
            },
            // Spec §4: the enrolled flag is also set when the server answers user_already_registered.
            alreadyRegistered: {
              meta: { screen: 'FinishRegisterWithError', errorCode: 'already-registered' },
              entry: [assign({ enrolled: true }), 'markEnrolled'],
            },
            documentAlreadyInUse: {
              meta: { screen: 'FinishRegisterWithError', errorCode: 'document-already-in-use' },
            },
            // The only retryable reason: the prohibited-list service is unavailable, try later.
            enforcementSourceUnavailable: {
              meta: { screen: 'FinishRegisterWithError', errorCode: 'enforcement-source-unavailable' },
              on: { 'registration.retry': '#enrolment.onboarding.confirming' },
            },
            unknown: {
              meta: { screen: 'FinishRegisterWithError', errorCode: 'unknown' },
            },
          },
        },
      },
    },
    cancelling: {
      tags: ['loading'],
      invoke: {
        id: 'deleteOnboarding',
        src: 'deleteOnboarding',
        input: ({ context }) => ({ onboardingId: context.onboardingId ?? '' }),
        onDone: {
          target: 'notEnrolled',
          actions: [assign(({ context }) => noOnboarding(context)), 'forgetOnboarding', 'goHome'],
        },
        // The person asked to leave: they leave, and the server forgets the onboarding in its own time.
        onError: {
          target: 'notEnrolled',
          actions: [assign(({ context }) => noOnboarding(context)), 'forgetOnboarding', 'goHome'],
        },
      },
    },
    enrolled: {
      entry: ['markEnrolled', 'forgetOnboarding'],
      on: { 'enrolment.finish': { actions: 'goHome' } },
      initial: 'withoutQr',
      states: {
        withQr: { meta: { screen: 'FinishRegisterWithQr' } },
        withoutQr: { meta: { screen: 'FinishRegister' } },
      },
    },
  },
});

function registrationOf(confirmation: ConfirmationResult): EnrolmentContext['registration'] {
  return {
    outcome: confirmation.result.outcome,
    reason: confirmation.result.reason,
    userId: confirmation.user_id,
    qrSid: confirmation.qr_sid,
  };
}

/** The registration payload (spec §3) from the confirmed review and the form. */
function payloadOf(context: EnrolmentContext): RegistrationPayload {
  return buildRegistrationPayload({
    reviewed: context.review ?? reviewDraft({}, null),
    documentType: context.documentType ?? 'none',
    form: context.form,
    registerMode: context.registerMode,
    domain: context.settings.domain,
    sessionEmail: context.sessionEmail,
    assistedEmail: context.assistedEmail,
  });
}
