import { assign, forwardTo, fromPromise, setup } from 'xstate';
import type {
  ConfirmationResult,
  CreatedOnboarding,
  CreatedPortrayal,
  DocumentChoice,
  PortrayalResult,
  RegistrationPayload,
  RegistrationReason,
} from '../contract/api/onboarding';
import {
  hasReverse,
  isCompleteDocumentChoice,
  normaliseDocumentCountry,
  portrayalTypeOf,
} from '../contract/domain/documents';
import {
  type EnrolmentRegisterType,
  type EnrolmentStep,
  legalTermsAccepted,
  nextEnrolmentStep,
  type PortrayalFailure,
  type RegisterMode,
  registerTypeOf,
  stepAfterNextSteps,
} from '../contract/domain/enrolment';
import {
  buildRegistrationPayload,
  EMPTY_FORM,
  type OcrAdaptation,
  ocrAdaptations,
  type RegisterFormData,
  type ReviewFields,
  reviewDraft,
} from '../contract/domain/registration';
import { errorOf, outputOf } from './actor-events';
import { type ImageUploadEvent, type ImageUploadInput, imageUploadMachine } from './image-upload.machine';
import { type PortrayalResultOutput, portrayalResultMachine } from './portrayal-result.machine';

export type { CapturedImage, UploadError, UploadImageInput } from './image-upload.machine';

// Self-enrolment (spec §4 "Enrolment flow"): not enrolled → onboarding started → legal terms accepted →
// document chosen → identity portrayal started → images sent → result polled → review → optional form →
// confirmed → enrolled, with every registration failure reason of spec §8 and every portrayal result error
// as a state of its own. The calls, the device check, the home screen and storage are named effects that
// src/actors provides; the URL follows meta.screen, also when the person leaves for home (the `left` states).
//
// Persistence and resume (spec §3: onboarding state persists). The context is plain JSON until the person is
// enrolled (the QR picture of the finish screen is never saved): captured pictures are never in it, only a
// CapturedImage key into an in-memory image store that the app keeps beside the actor (a photo should not
// outlive the tab in local storage). Every screen where the person may stop runs `persist` (here or in the
// imageUpload child, whose snapshot is part of this one), which the runtime implements as
//   () => queueMicrotask(() => save(enrolment.getPersistedSnapshot()))
// (entry actions run before the new snapshot is committed, hence the microtask). Restoring with
// createActor(enrolmentMachine, { snapshot }) brings the imageUpload child back in its state (and re-runs a
// call that was out, such as the terms of use), so the person is back on the screen they left. After a reload
// the image store is empty: a picture that was waiting to be re-sent is then reported by uploadImage as
// image_not_available and the person takes it again.

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

export interface ConfirmRegistrationInput {
  onboardingId: string;
  portrayalId: string;
  payload: RegistrationPayload;
  ocrAdaptations: OcrAdaptation[];
}

/**
 * A confirmation the server refused without a registration reason (field errors, network); detail: the server's
 * own text (detail, else title, else status text), shown when the code has no words in the catalogue.
 */
export interface ConfirmationError {
  code: string | null;
  errors: { field: string; code: string }[];
  detail?: string | null;
  /**
   * The words of a call that got no answer to read (the network, the client's timeout, a body that is not what the
   * contract says): the message id the API client's notice used, kept for the form after the notice has gone.
   */
  failure?: string | null;
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
  result: PortrayalResult | null;
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
  /**
   * Spec §2, §5: whether this device and browser may take the data and capture steps (device.checked; a phone
   * until told otherwise).
   */
  deviceSupported: boolean;
  /** FinishRegisterWithQr: the QR credential as a PNG (the enrolled states are never persisted). */
  qrImage: Blob | null;
  /** PrivacyOnboarding: the tenant's terms of use (markdown) in the person's language. */
  terms: string | null;
}

export type EnrolmentEvent =
  /** Landing's Start button; in assisted mode, with the email of the person being registered. */
  | { type: 'onboarding.start'; assistedEmail?: string; assistedUserId?: string }
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
  /** The capture screens: for the image upload machine of the current picture (forwarded to it). */
  | ImageUploadEvent
  | { type: 'scan.retry' }
  /** DocumentScan, the result that did not come in time: ask for it again (the pictures are on the server). */
  | { type: 'result.retry' }
  | { type: 'selfie.retry' }
  | { type: 'review.confirm'; fields: ReviewFields }
  | { type: 'form.submit'; email?: string; phone?: string; nie?: string }
  | { type: 'form.back' }
  | { type: 'registration.retry' }
  | { type: 'enrolment.finish' }
  /** FinishRegisterWithQr: fetch the QR credential again. */
  | { type: 'qr.retry' }
  /** Spec §2, §5: what the browser check said of this device (sent by the app when the actor starts). */
  | { type: 'device.checked'; ok: boolean }
  /** The person chose another language: texts such as the terms of use follow it. */
  | { type: 'locale.changed' };

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
    result: null,
    review: null,
    ocrAdaptations: [],
    form: EMPTY_FORM,
    confirmData: null,
    confirmationError: null,
    registration: null,
    qrImage: null,
  } satisfies Partial<EnrolmentContext>;
}

function confirmationErrorOf(error: unknown): ConfirmationError {
  const problem = (error ?? {}) as { code?: unknown; errors?: unknown; detail?: unknown; failure?: unknown };
  const errors = Array.isArray(problem.errors)
    ? problem.errors.filter(
        (item): item is { field: string; code: string } =>
          typeof item?.field === 'string' && typeof item?.code === 'string',
      )
    : [];
  return {
    code: typeof problem.code === 'string' ? problem.code : null,
    errors,
    detail: typeof problem.detail === 'string' && problem.detail !== '' ? problem.detail : null,
    failure: typeof problem.failure === 'string' && problem.failure !== '' ? problem.failure : null,
  };
}

const isComplete = (fields: ReviewFields) =>
  [fields.first_name, fields.last_name, fields.birth_date, fields.document_number].every(
    (value) => typeof value === 'string' && value.trim() !== '',
  );

/** The home screens a person may leave the enrolment for (src/auth/access.ts homeScreen). */
export type HomeScreen = 'Landing' | 'UserHome' | 'MyAccreditations' | 'MyVisits' | 'PortalManagement';

/** Where the QR credential of a finished enrolment is (spec §7 GET /public/credentials/{userId}/sids/{sid}). */
export interface QrImageInput {
  userId: string;
  qrSid: string;
}

export const enrolmentMachine = setup({
  types: {
    context: {} as EnrolmentContext,
    events: {} as EnrolmentEvent,
    input: {} as EnrolmentInput,
  },
  actors: {
    // Placeholders: src/actors provides the real calls (src/api onboardings, portrayals, credentials).
    createOnboarding: fromPromise<CreatedOnboarding, CreateOnboardingInput>(async () => {
      throw new Error('createOnboarding is provided by the app');
    }),
    acceptLegalTerms: fromPromise<void, { onboardingId: string }>(async () => {
      throw new Error('acceptLegalTerms is provided by the app');
    }),
    createPortrayal: fromPromise<CreatedPortrayal, CreatePortrayalInput>(async () => {
      throw new Error('createPortrayal is provided by the app');
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
    fetchQrImage: fromPromise<Blob, QrImageInput>(async () => {
      throw new Error('fetchQrImage is provided by the app');
    }),
    /** Spec §7 GET {assets}/tos-{lang}.md, without auth, in the person's language (else Spanish). */
    fetchTerms: fromPromise<string>(async () => {
      throw new Error('fetchTerms is provided by the app');
    }),
    imageUpload: imageUploadMachine,
    portrayalResult: portrayalResultMachine,
  },
  actions: {
    /** Save getPersistedSnapshot() once this step has settled (see the comment at the top). */
    persist: () => {},
    /** Remove the saved onboarding and the captured pictures. */
    forgetOnboarding: () => {},
    /** The session is enrolled now (session.updated). */
    markEnrolled: () => {},
    recordDevice: assign({
      deviceSupported: ({ context, event }) =>
        event.type === 'device.checked' ? event.ok : context.deviceSupported,
    }),
    /** Assisted mode: the new person's email, or the existing user being re-enrolled (AssistedExistingUsers). */
    storeAssistedPerson: assign(({ context, event }) => {
      if (event.type !== 'onboarding.start') return {};
      if (event.assistedUserId) return { assistedUserId: event.assistedUserId, assistedEmail: null };
      return {
        assistedUserId: event.assistedEmail?.trim() ? null : context.assistedUserId,
        assistedEmail: event.assistedEmail?.trim() || context.assistedEmail,
      };
    }),
    /** Another device's onboarding, continued here: nothing of an earlier one is kept. */
    takeContinuedOnboarding: assign(({ context, event }) => ({
      ...noOnboarding(context),
      onboardingId: event.type === 'onboarding.continue' ? event.onboardingId : null,
    })),
    storeOnboarding: assign(({ event }) => onboardingFacts(outputOf<CreatedOnboarding>(event))),
    clearOnboarding: assign(({ context }) => noOnboarding(context)),
    chooseSelfieOnly: assign({ documentType: 'none' as const, documentCountry: null }),
    storeDocumentChoice: assign(({ event }) =>
      event.type === 'document.chosen'
        ? {
            documentType: event.documentType,
            documentCountry: normaliseDocumentCountry(event.documentType, event.documentCountry),
          }
        : {},
    ),
    storePortrayal: assign(({ event }) => {
      const portrayal = outputOf<CreatedPortrayal>(event);
      return { identityPortrayalId: portrayal.portrayal_id, lifeProofing: portrayal.life_proofing };
    }),
    forwardToImageUpload: forwardTo('imageUpload'),
    storePortrayalResult: assign(({ context, event }) => {
      const output = outputOf<PortrayalResultOutput>(event);
      const result = output.status === 'done' ? output.result : null;
      return { result, review: reviewDraft(result?.document_info ?? {}, context.claims) };
    }),
    clearScanResult: assign({ result: null }),
    storeReview: assign(({ context, event }) =>
      event.type === 'review.confirm'
        ? {
            ocrAdaptations: ocrAdaptations(context.result?.document_info ?? {}, event.fields),
            review: event.fields,
          }
        : {},
    ),
    storeForm: assign(({ event }) =>
      event.type === 'form.submit'
        ? {
            form: { email: event.email ?? '', phone: event.phone ?? '', nie: event.nie ?? '' },
            confirmationError: null,
          }
        : {},
    ),
    /** The registration payload (spec §3) from the review and the form; registration.retry re-sends it. */
    storeConfirmData: assign({ confirmData: ({ context }) => payloadOf(context) }),
    storeRegistration: assign({
      registration: ({ event }) => registrationOf(outputOf<ConfirmationResult>(event)),
    }),
    storeConfirmationError: assign({ confirmationError: ({ event }) => confirmationErrorOf(errorOf(event)) }),
    setEnrolled: assign({ enrolled: true }),
    storeQrImage: assign({ qrImage: ({ event }) => outputOf<Blob>(event) }),
    storeTerms: assign({ terms: ({ event }) => outputOf<string>(event) }),
  },
  guards: {
    nextStepIs: ({ context }, params: { step: EnrolmentStep }) =>
      nextEnrolmentStep(context.settings, context.identityProofing) === params.step,
    stepAfterNextStepsIs: ({ context }, params: { step: EnrolmentStep }) =>
      stepAfterNextSteps(context.settings, context.identityProofing) === params.step,
    identityProofingOn: ({ context }) => context.identityProofing,
    lifeProofingOn: ({ context }) => context.lifeProofing,
    /** Spec §2: a computer, or a browser that will not do, takes no data or capture step. */
    deviceUnsupported: ({ context }) => !context.deviceSupported,
    reportsSupportedDevice: ({ event }) => event.type === 'device.checked' && event.ok,
    /** The person's home screen (src/auth/access.ts homeScreen); the app provides it from the session. */
    homeIs: (_, _params: { screen: HomeScreen }) => false,
    legalTermsAlreadyAccepted: ({ event }) => outputOf<ContinuedOnboarding>(event).legal_terms_accepted,
    acceptsLegalTerms: ({ context, event }) =>
      event.type === 'legalTerms.accept' && legalTermsAccepted(context.registerMode, event),
    choosesSelfieOnly: ({ context, event }) =>
      event.type === 'document.chosen' &&
      event.documentType === 'none' &&
      isCompleteDocumentChoice(context.supportedDocs, 'none', null),
    isCompleteDocumentChoice: ({ context, event }) =>
      event.type === 'document.chosen' &&
      isCompleteDocumentChoice(context.supportedDocs, event.documentType, event.documentCountry),
    needsDocumentImages: ({ context }) => context.documentType !== null && context.documentType !== 'none',
    hasReverse: ({ context }) => context.documentType !== null && hasReverse(context.documentType),
    portrayalFound: ({ event }) => outputOf<PortrayalResultOutput>(event).status === 'done',
    faceMismatch: ({ event }) => {
      const output = outputOf<PortrayalResultOutput>(event);
      return output.status === 'done' && output.result.score_biometry_valid === false;
    },
    isCompleteReview: ({ event }) => event.type === 'review.confirm' && isComplete(event.fields),
    acceptedWithQr: ({ context, event }) => {
      const confirmation = outputOf<ConfirmationResult>(event);
      return (
        confirmation.result.outcome === 'accepted' && confirmation.qr_sid !== null && context.biometricQR
      );
    },
    accepted: ({ event }) => outputOf<ConfirmationResult>(event).result.outcome === 'accepted',
    // The code of a portrayal result that failed, or of a registration the server rejected.
    hasCode: ({ event }, params: { code: PortrayalFailure | RegistrationReason }) => {
      if ((event as { type: string }).type === 'xstate.done.actor.portrayalResult') {
        const output = outputOf<PortrayalResultOutput>(event);
        return output.status === 'failed' && output.failure === params.code;
      }
      const confirmation = outputOf<ConfirmationResult>(event);
      return confirmation.result.outcome !== 'accepted' && confirmation.result.reason === params.code;
    },
  },
}).createMachine({
  id: 'enrolment',
  description:
    'Spec §4 "Enrolment flow": not enrolled; onboarding started (supported docs stored); legal terms accepted; document chosen; identity portrayal started; images sent (obverse, reverse, selfie, liveness); result polled until it is no longer 404; review; optional form; confirmed; enrolled. The enrolled flag is also set when the server answers user_already_registered. Cancelling deletes the onboarding; stopping resets all onboarding state and goes home. Spec §2: on a computer or an unsupported browser the data and capture steps show DeviceDetect.',
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
    result: null,
    review: null,
    ocrAdaptations: [],
    form: EMPTY_FORM,
    confirmData: null,
    confirmationError: null,
    registration: null,
    enrolled: false,
    deviceSupported: true,
    qrImage: null,
    terms: null,
  }),
  initial: 'notEnrolled',
  on: {
    'onboarding.continue': { target: '.continuingOnboarding', actions: 'takeContinuedOnboarding' },
    'device.checked': { actions: 'recordDevice' },
  },
  states: {
    notEnrolled: {
      description:
        'Landing: image, title, description and the Start button (assisted mode: the email of the person, or, with AssistedExistingUsers, an existing user picked to re-enrol).',
      meta: { screen: 'Landing' },
      on: { 'onboarding.start': { target: 'startingOnboarding', actions: 'storeAssistedPerson' } },
    },
    startingOnboarding: {
      description: 'Landing, Start busy: POST /internal/onboardings.',
      meta: { screen: 'Landing' },
      tags: ['busy'],
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
        onDone: { target: 'onboarding', actions: 'storeOnboarding' },
        // The API client has told the person; Start tries again.
        onError: 'notEnrolled',
      },
    },
    continuingOnboarding: {
      description:
        'An onboarding another device started (DeviceDetect, after its user code) is loaded to pick its step.',
      tags: ['busy'],
      invoke: {
        id: 'loadOnboarding',
        src: 'loadOnboarding',
        input: ({ context }) => ({ onboardingId: context.onboardingId ?? '' }),
        onDone: [
          {
            guard: 'legalTermsAlreadyAccepted',
            target: 'onboarding.legalTermsDone',
            actions: 'storeOnboarding',
          },
          { target: 'onboarding.legalTerms', actions: 'storeOnboarding' },
        ],
        onError: { target: 'notEnrolled', actions: 'clearOnboarding' },
      },
    },
    onboarding: {
      on: {
        'onboarding.cancel': '#enrolment.cancelling',
        'onboarding.stop': { target: '#enrolment.leaving', actions: ['clearOnboarding', 'forgetOnboarding'] },
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
          description: 'NextSteps (setting showNextSteps): what the enrolment will ask for, and Continue.',
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
          description:
            'IdentityProofingStep (setting onboardingSteps): why the document is checked, and Continue.',
          meta: { screen: 'IdentityProofingStep' },
          entry: 'persist',
          on: { 'steps.continue': 'legalTerms' },
        },
        legalTerms: {
          description:
            'PrivacyOnboarding: the terms of use to accept (assisted mode: also the legal legitimacy to confirm).',
          meta: { screen: 'PrivacyOnboarding' },
          entry: 'persist',
          always: { guard: 'deviceUnsupported', target: 'otherDevice' },
          on: {
            'legalTerms.accept': { guard: 'acceptsLegalTerms', target: 'acceptingLegalTerms' },
            'locale.changed': '.loadingTerms',
          },
          initial: 'loadingTerms',
          states: {
            loadingTerms: {
              description: 'PrivacyOnboarding, the terms spinner: GET {assets}/tos-{lang}.md.',
              invoke: {
                id: 'fetchTerms',
                src: 'fetchTerms',
                onDone: { target: 'termsShown', actions: 'storeTerms' },
                onError: 'termsUnavailable',
              },
            },
            termsShown: {
              description: 'PrivacyOnboarding: the terms of use, scrollable, and the accept checkbox.',
            },
            termsUnavailable: {
              description:
                'PrivacyOnboarding, error terms_unavailable: the terms of use could not be loaded; they cannot be accepted.',
              meta: { screen: 'PrivacyOnboarding', errorCode: 'terms_unavailable' },
            },
          },
        },
        acceptingLegalTerms: {
          description: 'PrivacyOnboarding, accept busy: PUT /internal/onboardings/{id}/legal_terms.',
          meta: { screen: 'PrivacyOnboarding' },
          tags: ['busy'],
          invoke: {
            id: 'acceptLegalTerms',
            src: 'acceptLegalTerms',
            input: ({ context }) => ({ onboardingId: context.onboardingId ?? '' }),
            onDone: 'legalTermsDone',
            onError: 'legalTerms.termsShown',
          },
        },
        legalTermsDone: {
          always: [
            { guard: 'identityProofingOn', target: 'choosingDocument' },
            // OnlySelfieWithId: a selfie-only portrayal.
            { target: 'registerSelfie', actions: 'chooseSelfieOnly' },
          ],
        },
        choosingDocument: {
          description:
            'RegisterDocuments: the document types the onboarding supports, and the country of issue.',
          meta: { screen: 'RegisterDocuments' },
          entry: 'persist',
          always: { guard: 'deviceUnsupported', target: 'otherDevice' },
          on: {
            'document.chosen': [
              { guard: 'choosesSelfieOnly', target: 'registerSelfie', actions: 'chooseSelfieOnly' },
              {
                guard: 'isCompleteDocumentChoice',
                target: 'startingPortrayal',
                actions: 'storeDocumentChoice',
              },
            ],
          },
        },
        registerSelfie: {
          description: 'RegisterSelfie: what the selfie is for, tips, and the button that opens the camera.',
          meta: { screen: 'RegisterSelfie' },
          entry: 'persist',
          always: { guard: 'deviceUnsupported', target: 'otherDevice' },
          on: { 'selfie.start': 'startingPortrayal' },
        },
        startingPortrayal: {
          description: 'The step before stays shown, busy: POST /internal/portrayals.',
          tags: ['busy'],
          invoke: {
            id: 'createPortrayal',
            src: 'createPortrayal',
            input: ({ context }) => ({
              onboardingId: context.onboardingId ?? '',
              portrayalType: portrayalTypeOf(context.documentType ?? 'none'),
              documentType: context.documentType ?? 'none',
              documentCountry: context.documentCountry,
            }),
            onDone: { target: 'images', actions: 'storePortrayal' },
            onError: [
              { guard: 'needsDocumentImages', target: 'choosingDocument' },
              { target: 'registerSelfie' },
            ],
          },
        },
        // One imageUpload child per picture (machines/image-upload.machine.ts); the capture screens read its
        // snapshot (snapshot.children.imageUpload) for the upload and its errors, and their events reach it.
        images: {
          on: {
            'image.captured': { actions: 'forwardToImageUpload' },
            'upload.retry': { actions: 'forwardToImageUpload' },
            'challenge.retry': { actions: 'forwardToImageUpload' },
          },
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
              description:
                'DocumentScan, front side: the back camera, then the upload (errors upload_failed, image_not_available from imageUpload).',
              meta: { screen: 'DocumentScan', side: 'obverse' },
              invoke: {
                id: 'imageUpload',
                src: 'imageUpload',
                input: ({ context }): ImageUploadInput => ({
                  kind: 'obverse',
                  portrayalId: context.identityPortrayalId ?? '',
                }),
                onDone: [
                  { guard: 'hasReverse', target: 'reverse' },
                  { guard: 'lifeProofingOn', target: 'lifeproof' },
                  { target: 'selfie' },
                ],
              },
            },
            reverse: {
              description:
                'DocumentScan, back side: the back camera, then the upload (errors upload_failed, image_not_available from imageUpload).',
              meta: { screen: 'DocumentScan', side: 'reverse' },
              invoke: {
                id: 'imageUpload',
                src: 'imageUpload',
                input: ({ context }): ImageUploadInput => ({
                  kind: 'reverse',
                  portrayalId: context.identityPortrayalId ?? '',
                }),
                onDone: [{ guard: 'lifeProofingOn', target: 'lifeproof' }, { target: 'selfie' }],
              },
            },
            selfie: {
              description:
                'TakeSelfie: the front camera, then the upload (errors upload_failed, image_not_available from imageUpload).',
              meta: { screen: 'TakeSelfie' },
              always: { guard: 'deviceUnsupported', target: '#enrolment.onboarding.otherDevice' },
              invoke: {
                id: 'imageUpload',
                src: 'imageUpload',
                input: ({ context }): ImageUploadInput => ({
                  kind: 'selfie',
                  portrayalId: context.identityPortrayalId ?? '',
                }),
                onDone: '#enrolment.onboarding.result',
              },
            },
            lifeproof: {
              description:
                'TakeSelfieAlive: the liveness challenge, one picture per action, then the upload (errors challenge_unavailable, upload_failed, image_not_available from imageUpload).',
              meta: { screen: 'TakeSelfieAlive' },
              always: { guard: 'deviceUnsupported', target: '#enrolment.onboarding.otherDevice' },
              invoke: {
                id: 'imageUpload',
                src: 'imageUpload',
                input: ({ context }): ImageUploadInput => ({
                  kind: 'lifeproof',
                  portrayalId: context.identityPortrayalId ?? '',
                }),
                onDone: '#enrolment.onboarding.result',
              },
            },
          },
        },
        // The review screen waits for the result: polled every 2 s, at most 16 s (portrayal-result.machine).
        result: {
          description:
            'ReviewRegister, waiting: the result of the portrayal is polled every 2 s for at most 16 s.',
          meta: { screen: 'ReviewRegister' },
          tags: ['busy'],
          invoke: {
            id: 'portrayalResult',
            src: 'portrayalResult',
            input: ({ context }) => ({ portrayalId: context.identityPortrayalId ?? '' }),
            onDone: [
              {
                guard: 'faceMismatch',
                target: 'selfieFailed.faceMismatch',
              },
              { guard: 'portrayalFound', target: 'review', actions: 'storePortrayalResult' },
              {
                guard: { type: 'hasCode', params: { code: 'no_face_error' } },
                target: 'selfieFailed.noFace',
              },
              {
                guard: { type: 'hasCode', params: { code: 'multiple_faces_error' } },
                target: 'selfieFailed.multipleFaces',
              },
              {
                guard: { type: 'hasCode', params: { code: 'blurred_image_error' } },
                target: 'scanFailed.blurred',
              },
              {
                guard: { type: 'hasCode', params: { code: 'document_classification_error' } },
                target: 'scanFailed.classification',
              },
              {
                guard: { type: 'hasCode', params: { code: 'spoofed_image_error' } },
                target: 'scanFailed.spoofed',
              },
              {
                guard: { type: 'hasCode', params: { code: 'validas_error' } },
                target: 'scanFailed.validation',
              },
              {
                guard: { type: 'hasCode', params: { code: 'timeout' } },
                target: 'scanFailed.timeout',
              },
              {
                target: 'scanFailed.unknown',
              },
            ],
            onError: {
              target: 'scanFailed.unknown',
            },
          },
        },
        // Spec §8 document scan failure screens; scan.retry takes the pictures again for the same onboarding
        // and portrayal (the server computes a new result for new pictures).
        scanFailed: {
          entry: 'persist',
          on: { 'scan.retry': { target: 'images', actions: 'clearScanResult' } },
          initial: 'unknown',
          states: {
            classification: {
              description:
                'DocumentScan, classification failure screen, error document_classification_error: the document does not match the type chosen; retry.',
              meta: {
                screen: 'DocumentScan',
                scanError: 'classification',
                errorCode: 'document_classification_error',
              },
            },
            blurred: {
              description: 'DocumentScan, error blurred_image_error: the picture is blurred; retry.',
              meta: { screen: 'DocumentScan', scanError: 'blurred', errorCode: 'blurred_image_error' },
            },
            spoofed: {
              description: 'DocumentScan, error spoofed_image_error: the analysis failed; retry.',
              meta: { screen: 'DocumentScan', scanError: 'analysis', errorCode: 'spoofed_image_error' },
            },
            validation: {
              description:
                'DocumentScan, analysis failure screen, error validas_error: the validation failed; retry.',
              meta: { screen: 'DocumentScan', scanError: 'analysis', errorCode: 'validas_error' },
            },
            unknown: {
              description: 'DocumentScan, error unknown: the result named no known error; retry.',
              meta: { screen: 'DocumentScan', scanError: 'unknown', errorCode: 'unknown' },
            },
            // The pictures are on the server and the engine may only be slow: asking again loses nothing, and
            // taking the pictures again (scan.retry) stays offered.
            timeout: {
              description:
                'DocumentScan, error timeout: no result within 16 s (the undefined failure screen); check again for the result of the same pictures, or take them again.',
              meta: { screen: 'DocumentScan', scanError: 'undefined', errorCode: 'timeout' },
              on: { 'result.retry': '#enrolment.onboarding.result' },
            },
          },
        },
        // The selfie could not be used (reference engine): back to the selfie step alone, the document kept.
        selfieFailed: {
          entry: 'persist',
          on: {
            'selfie.retry': [
              { guard: 'lifeProofingOn', target: 'images.lifeproof', actions: 'clearScanResult' },
              { target: 'images.selfie', actions: 'clearScanResult' },
            ],
          },
          initial: 'noFace',
          states: {
            noFace: {
              description:
                'TakeSelfie, error no_face_error (selfieError noFace): no face is seen in the selfie; retake it.',
              meta: { screen: 'TakeSelfie', selfieError: 'noFace', errorCode: 'no_face_error' },
            },
            multipleFaces: {
              description:
                'TakeSelfie, error multiple_faces_error (selfieError multipleFaces): more than one face is seen in the selfie; retake it alone.',
              meta: { screen: 'TakeSelfie', selfieError: 'multipleFaces', errorCode: 'multiple_faces_error' },
            },
            faceMismatch: {
              description:
                'TakeSelfie, error face_mismatch (selfieError faceMismatch): the face does not match the document (score_biometry_valid false); retake it.',
              meta: { screen: 'TakeSelfie', selfieError: 'faceMismatch', errorCode: 'face_mismatch' },
            },
          },
        },
        review: {
          description: 'ReviewRegister: the document reading (with the token claims) to correct and confirm.',
          meta: { screen: 'ReviewRegister' },
          entry: 'persist',
          always: { guard: 'deviceUnsupported', target: 'otherDevice' },
          on: {
            'review.confirm': { guard: 'isCompleteReview', target: 'registerForm', actions: 'storeReview' },
          },
        },
        registerForm: {
          description:
            'RegisterForm: email, phone and NIE (optional form), with the field errors of a refused confirmation.',
          meta: { screen: 'RegisterForm' },
          entry: 'persist',
          always: { guard: 'deviceUnsupported', target: 'otherDevice' },
          on: {
            'form.submit': { target: 'confirming', actions: ['storeForm', 'storeConfirmData'] },
            'form.back': 'review',
          },
        },
        // No screen of its own: the form (or the retryable failure) stays shown while the server decides.
        confirming: {
          description:
            'RegisterForm (or the retryable failure) stays shown, busy: PUT /internal/onboardings/{id}/portrayals/{portrayalId}.',
          tags: ['busy'],
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
                guard: 'acceptedWithQr',
                target: '#enrolment.enrolled.withQr',
                actions: ['storeRegistration', 'setEnrolled'],
              },
              {
                guard: 'accepted',
                target: '#enrolment.enrolled.withoutQr',
                actions: ['storeRegistration', 'setEnrolled'],
              },
              {
                guard: { type: 'hasCode', params: { code: 'underaged' } },
                target: 'registrationFailed.underage',
                actions: 'storeRegistration',
              },
              {
                guard: { type: 'hasCode', params: { code: 'user_interdicted' } },
                target: 'registrationFailed.forbiddenList',
                actions: 'storeRegistration',
              },
              {
                guard: { type: 'hasCode', params: { code: 'document_expired' } },
                target: 'registrationFailed.documentExpired',
                actions: 'storeRegistration',
              },
              {
                guard: { type: 'hasCode', params: { code: 'life_proofing_failed' } },
                target: 'registrationFailed.lifeProofingFailed',
                actions: 'storeRegistration',
              },
              {
                guard: { type: 'hasCode', params: { code: 'user_already_registered' } },
                target: 'registrationFailed.alreadyRegistered',
                actions: 'storeRegistration',
              },
              {
                guard: { type: 'hasCode', params: { code: 'document_already_exists' } },
                target: 'registrationFailed.documentAlreadyInUse',
                actions: 'storeRegistration',
              },
              {
                guard: { type: 'hasCode', params: { code: 'enforcement_source_unavailable' } },
                target: 'registrationFailed.enforcementSourceUnavailable',
                actions: 'storeRegistration',
              },
              { target: 'registrationFailed.unknown', actions: 'storeRegistration' },
            ],
            // No registration reason (a field refused, the network): back to the form to correct or resend.
            onError: { target: 'registerForm', actions: 'storeConfirmationError' },
          },
        },
        // Spec §8 registration failures, each with its code on the finish-with-error screen.
        registrationFailed: {
          entry: 'persist',
          initial: 'unknown',
          states: {
            underage: {
              description:
                'FinishRegisterWithError, error underage (reason underaged): the person is under age.',
              meta: { screen: 'FinishRegisterWithError', errorCode: 'underage' },
            },
            forbiddenList: {
              description:
                'FinishRegisterWithError, error forbidden-list (reason user_interdicted): the person is on the prohibited list.',
              meta: { screen: 'FinishRegisterWithError', errorCode: 'forbidden-list' },
            },
            documentExpired: {
              description: 'FinishRegisterWithError, error document-expired (reason document_expired).',
              meta: { screen: 'FinishRegisterWithError', errorCode: 'document-expired' },
            },
            lifeProofingFailed: {
              description:
                'FinishRegisterWithError, error life-proofing-failed (reason life_proofing_failed).',
              meta: { screen: 'FinishRegisterWithError', errorCode: 'life-proofing-failed' },
            },
            // Spec §4: the enrolled flag is also set when the server answers user_already_registered.
            alreadyRegistered: {
              description:
                'FinishRegisterWithError, error already-registered (reason user_already_registered): the person is enrolled already, and now marked so.',
              meta: { screen: 'FinishRegisterWithError', errorCode: 'already-registered' },
              entry: ['setEnrolled', 'markEnrolled'],
            },
            documentAlreadyInUse: {
              description:
                'FinishRegisterWithError, error document-already-in-use (reason document_already_exists).',
              meta: { screen: 'FinishRegisterWithError', errorCode: 'document-already-in-use' },
            },
            // The only retryable reason: the prohibited-list service is unavailable, try later.
            enforcementSourceUnavailable: {
              description:
                'FinishRegisterWithError, error enforcement-source-unavailable (reason enforcement_source_unavailable): the prohibited-list service is down; the only retryable reason, with a retry button.',
              meta: { screen: 'FinishRegisterWithError', errorCode: 'enforcement-source-unavailable' },
              on: { 'registration.retry': '#enrolment.onboarding.confirming' },
            },
            unknown: {
              description: 'FinishRegisterWithError, error unknown: a reason this portal does not know.',
              meta: { screen: 'FinishRegisterWithError', errorCode: 'unknown' },
            },
          },
        },
        // Spec §2: the data and capture steps are for a phone; the person continues there with a user code.
        otherDevice: {
          description:
            'DeviceDetect: this computer or browser cannot take the data and capture steps; a user code and its QR continue the same onboarding on a phone, whose progress is shown.',
          meta: { screen: 'DeviceDetect' },
          on: {
            // The same browser passes the check after all: the server says which step the onboarding is at.
            'device.checked': {
              guard: 'reportsSupportedDevice',
              target: '#enrolment.continuingOnboarding',
              actions: 'recordDevice',
            },
          },
        },
      },
    },
    cancelling: {
      description: 'The step stays shown, busy: DELETE /internal/onboardings/{id}.',
      tags: ['busy'],
      invoke: {
        id: 'deleteOnboarding',
        src: 'deleteOnboarding',
        input: ({ context }) => ({ onboardingId: context.onboardingId ?? '' }),
        onDone: { target: 'leaving', actions: ['clearOnboarding', 'forgetOnboarding'] },
        // The person asked to leave: they leave, and the server forgets the onboarding in its own time.
        onError: { target: 'leaving', actions: ['clearOnboarding', 'forgetOnboarding'] },
      },
    },
    enrolled: {
      entry: ['markEnrolled', 'forgetOnboarding'],
      on: { 'enrolment.finish': 'leaving' },
      initial: 'withoutQr',
      states: {
        withQr: {
          description:
            'FinishRegisterWithQr: enrolled, with the new QR credential (valid 15 days) to show and download, and Continue.',
          meta: { screen: 'FinishRegisterWithQr' },
          initial: 'loadingQr',
          states: {
            loadingQr: {
              description:
                'FinishRegisterWithQr, the QR spinner: GET /public/credentials/{userId}/sids/{sid} as PNG.',
              tags: ['busy'],
              invoke: {
                id: 'fetchQrImage',
                src: 'fetchQrImage',
                input: ({ context }) => ({
                  userId: context.registration?.userId ?? '',
                  qrSid: context.registration?.qrSid ?? '',
                }),
                onDone: { target: 'qrShown', actions: 'storeQrImage' },
                onError: 'qrUnavailable',
              },
            },
            qrShown: {
              description: 'FinishRegisterWithQr: the QR image and its download link.',
            },
            qrUnavailable: {
              description:
                'FinishRegisterWithQr, error qr_unavailable: the QR image could not be loaded; a retry button.',
              meta: { screen: 'FinishRegisterWithQr', errorCode: 'qr_unavailable' },
              on: { 'qr.retry': 'loadingQr' },
            },
          },
        },
        withoutQr: {
          description: 'FinishRegister: enrolled (no QR credential issued), and Continue.',
          meta: { screen: 'FinishRegister' },
        },
      },
    },
    // Leaving the enrolment: the person's home screen (src/auth/access.ts homeScreen), which the app names.
    leaving: {
      always: [
        { guard: { type: 'homeIs', params: { screen: 'UserHome' } }, target: 'left.userHome' },
        {
          guard: { type: 'homeIs', params: { screen: 'MyAccreditations' } },
          target: 'left.myAccreditations',
        },
        { guard: { type: 'homeIs', params: { screen: 'MyVisits' } }, target: 'left.myVisits' },
        {
          guard: { type: 'homeIs', params: { screen: 'PortalManagement' } },
          target: 'left.portalManagement',
        },
        // Someone not enrolled is at home on Landing.
        { target: 'left.landing' },
      ],
    },
    // The enrolment is over: the app shows the home screen named here and starts a new enrolment when the
    // person comes back to one of its screens.
    left: {
      initial: 'landing',
      states: {
        landing: {
          description:
            'Landing: someone not enrolled is at home on Landing, where Start begins a new enrolment.',
          meta: { screen: 'Landing' },
        },
        userHome: {
          description: 'UserHome: the enrolment is left for the home of an enrolled user.',
          meta: { screen: 'UserHome' },
        },
        myAccreditations: {
          description:
            'MyAccreditations: the enrolment is left for the home of a person enrolled with claims.',
          meta: { screen: 'MyAccreditations' },
        },
        myVisits: {
          description: 'MyVisits: the enrolment is left for the home of an enrolled visitor.',
          meta: { screen: 'MyVisits' },
        },
        portalManagement: {
          description:
            'PortalManagement: the enrolment is left for the home of staff (an assistant after an assisted registration).',
          meta: { screen: 'PortalManagement' },
        },
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
