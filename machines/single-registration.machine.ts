import { assign, fromPromise, setup } from 'xstate';
import type { SingleRegistrationBody, SingleRegistrationResult } from '../contract/api/singles';
import { type AcsIdSchema, acsIdProblem, type SingleError, singleErrorOf } from '../contract/domain/singles';
import { errorOf, outputOf } from './actor-events';

// SingleRegistration (spec §2 new-user-credential, §5, §7 POST /public/singles, §8 singles reasons and user
// registration codes). Staff with post_singles register a person in one of two modes: the fields plus email, or
// username + acs_id + email + an image. As the person types, the email and the acs_id are checked (GET
// /internal/accounts?email= and GET /public/credentials?acs_id=: 200 taken, 404 free); the acs_id first against
// the tenant's acsIdSchema (string64, or Wiegand 1–65535). An image is decoded in the server's bounded queue: a
// server busy with other pictures answers 429 busy with a Retry-After, and the same body goes again then, by
// itself, a few times at most, with the form as the person filled it.

export type SingleMode = 'fields' | 'image';
export type Availability = 'unchecked' | 'checking' | 'free' | 'taken' | 'invalid' | 'unknown';

/** What the actors reject with: the HTTP status (0 without an answer), the problem's code and field errors. */
export interface SingleError409 {
  status: number;
  code?: string;
  errors?: { field: string; code: string }[];
  /** 429 busy: the seconds the server asked to wait (Retry-After). */
  retryAfter?: number;
  /** The server's own words (detail, else title, else status text): shown for a code the portal has no words for. */
  text?: string;
}

/** A problem the server answered, for one field or for the whole form (`body`). */
export interface SingleFieldError {
  field: string;
  /** The server's code ('' when it named none). */
  code: string;
  /** The server's own words, the fallback for a code without words (spec §8). */
  text?: string;
}

/** Sends of one registration the server may answer busy before the form says to try again later. */
export const BUSY_RETRIES = 5;
/** Seconds to wait when a busy answer names none. */
const BUSY_WAIT_SECONDS = 2;

export interface SingleRegistrationInput {
  acsIdSchema: AcsIdSchema;
  /** The tenant allows the QR to be mailed (contract/domain/singles.ts qrEmailAllowed). */
  qrEmailAllowed: boolean;
  /** The mode to start in (DelegatedFinishRegister starts, and stays, in 'image'). */
  mode?: SingleMode;
}

export interface SingleRegistrationContext extends Omit<SingleRegistrationInput, 'mode'> {
  mode: SingleMode;
  email: string;
  acsId: string;
  /** Why the acs_id does not suit the schema (common.errors.{code}). */
  acsIdProblem: string | null;
  /** Field errors the server answered (422/409), shown beside each field. */
  fieldErrors: SingleFieldError[];
  result: SingleRegistrationResult['result'] | null;
  /** The last body sent, to send again after a failure without an answer or a busy server. */
  body: SingleRegistrationBody | null;
  /** Busy answers to the current body so far, and how long the last one asked to wait (ms). */
  busyAnswers: number;
  retryAfterMs: number;
}

export type SingleRegistrationEvent =
  | { type: 'mode.changed'; mode: SingleMode }
  | { type: 'email.changed'; email: string }
  | { type: 'acsId.changed'; acsId: string }
  | { type: 'submit'; body: SingleRegistrationBody }
  | { type: 'again' };

const isEmailLike = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());

export const singleRegistrationMachine = setup({
  types: {
    context: {} as SingleRegistrationContext,
    events: {} as SingleRegistrationEvent,
    input: {} as SingleRegistrationInput,
  },
  actors: {
    // Placeholders: src/actors/singles.ts provides the calls (src/api/singles).
    checkEmail: fromPromise<boolean, { email: string }>(async () => {
      throw new Error('checkEmail is provided by src/actors/singles.ts');
    }),
    checkAcsId: fromPromise<boolean, { acsId: string }>(async () => {
      throw new Error('checkAcsId is provided by src/actors/singles.ts');
    }),
    register: fromPromise<SingleRegistrationResult, { body: SingleRegistrationBody }>(async () => {
      throw new Error('register is provided by src/actors/singles.ts');
    }),
  },
  delays: {
    /** Existence checks wait for a pause in typing. */
    typingPause: 400,
    /** As long as the server's Retry-After asked. */
    busyRetry: ({ context }) => context.retryAfterMs,
  },
  actions: {
    storeMode: assign(({ context, event }) =>
      event.type === 'mode.changed' ? { mode: event.mode, fieldErrors: [] } : context,
    ),
    storeEmail: assign(({ context, event }) =>
      event.type === 'email.changed'
        ? { email: event.email, fieldErrors: context.fieldErrors.filter((e) => e.field !== 'email') }
        : context,
    ),
    storeAcsId: assign(({ context, event }) =>
      event.type === 'acsId.changed'
        ? {
            acsId: event.acsId,
            acsIdProblem: event.acsId.trim() === '' ? null : acsIdProblem(context.acsIdSchema, event.acsId),
            fieldErrors: context.fieldErrors.filter((e) => e.field !== 'acs_id'),
          }
        : context,
    ),
    // A new send forgets the last answer's problems: an old refusal must not stand beside the new outcome.
    storeBody: assign(({ context, event }) =>
      event.type === 'submit' ? { body: event.body, busyAnswers: 0, fieldErrors: [] } : context,
    ),
    storeBusy: assign(({ context, event }) => {
      const seconds = (errorOf(event) as SingleError409 | undefined)?.retryAfter;
      return {
        busyAnswers: context.busyAnswers + 1,
        retryAfterMs: (typeof seconds === 'number' && seconds > 0 ? seconds : BUSY_WAIT_SECONDS) * 1000,
        fieldErrors: [],
      };
    }),
    forgetBusy: assign({ busyAnswers: 0 }),
    storeResult: assign({ result: ({ event }) => outputOf<SingleRegistrationResult>(event).result }),
    storeFieldErrors: assign({
      fieldErrors: ({ event }) => {
        const error = errorOf(event) as SingleError409;
        if (error.errors && error.errors.length > 0) return error.errors;
        // A refusal of the whole form, with or without a code: never a refusal that shows nothing.
        return [{ field: 'body', code: error.code ?? '', ...(error.text ? { text: error.text } : {}) }];
      },
    }),
    reset: assign(({ context }) => ({
      mode: context.mode,
      email: '',
      acsId: '',
      acsIdProblem: null,
      fieldErrors: [],
      result: null,
      body: null,
      busyAnswers: 0,
    })),
  },
  guards: {
    emailLooksValid: ({ event }) => event.type === 'email.changed' && isEmailLike(event.email),
    acsIdProblemIs: ({ context, event }, params: { problem: 'wiegand_range' | 'wrong_format' }) =>
      event.type === 'acsId.changed' && acsIdProblem(context.acsIdSchema, event.acsId) === params.problem,
    acsIdSuitsSchema: ({ context, event }) =>
      event.type === 'acsId.changed' && acsIdProblem(context.acsIdSchema, event.acsId) === null,
    isTaken: ({ event }) => outputOf<boolean>(event) === true,
    isAccepted: ({ event }) => outputOf<SingleRegistrationResult>(event).result.outcome === 'accepted',
    hasCode: ({ event }, params: { code: SingleError }) =>
      singleErrorOf(outputOf<SingleRegistrationResult>(event).result.reason) === params.code,
    isFieldProblem: ({ event }) => {
      const status = (errorOf(event) as SingleError409 | undefined)?.status;
      return status === 409 || status === 422;
    },
    isBusy: ({ event }) => (errorOf(event) as SingleError409 | undefined)?.status === 429,
    isBusyAndMayRetry: ({ context, event }) =>
      (errorOf(event) as SingleError409 | undefined)?.status === 429 && context.busyAnswers < BUSY_RETRIES,
  },
}).createMachine({
  id: 'singleRegistration',
  description:
    'SingleRegistration (spec §2 new-user-credential, post_singles; §5; §7 POST /public/singles; §8): staff register a person from the fields plus email, or from username, acs_id, email and an image. The email (email_already_in_use) and the acs_id (acs_id_already_in_use; wiegand_range or wrong_format against the acsIdSchema) are checked as the person types (200 taken, 404 free). The outcome is accepted, or rejected with a reason and its user registration code 0–3.',
  context: ({ input }) => ({
    ...input,
    mode: input.mode ?? 'fields',
    email: '',
    acsId: '',
    acsIdProblem: null,
    fieldErrors: [],
    result: null,
    body: null,
    busyAnswers: 0,
    retryAfterMs: 0,
  }),
  initial: 'editing',
  states: {
    editing: {
      description:
        'SingleRegistration: the form of the chosen mode, with the existence checks as the person types.',
      meta: { screen: 'SingleRegistration' },
      type: 'parallel',
      on: {
        'mode.changed': { actions: 'storeMode' },
        submit: { target: 'submitting', actions: 'storeBody' },
      },
      states: {
        email: {
          description: 'Whether the email is free.',
          initial: 'unchecked',
          on: {
            'email.changed': [
              { guard: 'emailLooksValid', target: '.waiting', actions: 'storeEmail' },
              { target: '.unchecked', actions: 'storeEmail' },
            ],
          },
          states: {
            unchecked: { description: 'Nothing to check yet (empty or not an email).' },
            waiting: {
              description: 'A pause in typing before the check.',
              after: { typingPause: 'checking' },
            },
            checking: {
              description: 'GET /internal/accounts?email=: 200 taken, 404 free.',
              invoke: {
                id: 'checkEmail',
                src: 'checkEmail',
                input: ({ context }) => ({ email: context.email.trim() }),
                onDone: [{ guard: 'isTaken', target: 'taken' }, { target: 'free' }],
                onError: 'unknown',
              },
            },
            free: { description: 'The email is free.' },
            taken: {
              description: 'Error email_already_in_use: an account of the tenant already has this email.',
              meta: { errorCode: 'email_already_in_use' },
            },
            unknown: { description: 'The check could not be made; the server checks again on sending.' },
          },
        },
        acsId: {
          description: 'Whether the acs_id suits the schema and is free.',
          initial: 'unchecked',
          on: {
            'acsId.changed': [
              { guard: 'acsIdSuitsSchema', target: '.waiting', actions: 'storeAcsId' },
              {
                guard: { type: 'acsIdProblemIs', params: { problem: 'wiegand_range' } },
                target: '.outOfRange',
                actions: 'storeAcsId',
              },
              {
                guard: { type: 'acsIdProblemIs', params: { problem: 'wrong_format' } },
                target: '.wrongFormat',
                actions: 'storeAcsId',
              },
              { target: '.unchecked', actions: 'storeAcsId' },
            ],
          },
          states: {
            unchecked: { description: 'Nothing to check yet (empty).' },
            outOfRange: {
              description:
                'Error wiegand_range: the tenant uses Wiegand numbers, and this is not one from 1 to 65535.',
              meta: { fieldError: 'wiegand_range' },
            },
            wrongFormat: {
              description: 'Error wrong_format: an acs_id is 1–64 printable characters without spaces.',
              meta: { fieldError: 'wrong_format' },
            },
            waiting: {
              description: 'A pause in typing before the check.',
              after: { typingPause: 'checking' },
            },
            checking: {
              description: 'GET /public/credentials?acs_id=: 200 taken, 404 free.',
              invoke: {
                id: 'checkAcsId',
                src: 'checkAcsId',
                input: ({ context }) => ({ acsId: context.acsId.trim() }),
                onDone: [{ guard: 'isTaken', target: 'taken' }, { target: 'free' }],
                onError: 'unknown',
              },
            },
            free: { description: 'The acs_id is free.' },
            taken: {
              description: 'Error acs_id_already_in_use: a user of the tenant already holds this acs_id.',
              meta: { errorCode: 'acs_id_already_in_use' },
            },
            unknown: { description: 'The check could not be made; the server checks again on sending.' },
          },
        },
      },
    },
    submitting: {
      description: 'SingleRegistration, busy: POST /public/singles.',
      meta: { screen: 'SingleRegistration' },
      tags: ['busy'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({ body: context.body as SingleRegistrationBody }),
        onDone: [
          { guard: 'isAccepted', target: 'registered', actions: 'storeResult' },
          {
            guard: { type: 'hasCode', params: { code: 'document-expired' } },
            target: 'rejected.documentExpired',
            actions: 'storeResult',
          },
          {
            guard: { type: 'hasCode', params: { code: 'embedding-failed' } },
            target: 'rejected.embeddingFailed',
            actions: 'storeResult',
          },
          {
            guard: { type: 'hasCode', params: { code: 'id-already-used' } },
            target: 'rejected.idAlreadyUsed',
            actions: 'storeResult',
          },
          {
            guard: { type: 'hasCode', params: { code: 'qr-generation-failed' } },
            target: 'rejected.qrGenerationFailed',
            actions: 'storeResult',
          },
          { target: 'rejected.unknown', actions: 'storeResult' },
        ],
        onError: [
          { guard: 'isFieldProblem', target: 'editing', actions: 'storeFieldErrors' },
          { guard: 'isBusyAndMayRetry', target: 'busy', actions: 'storeBusy' },
          // Still busy after every retry: the form says so above the button (body: busy).
          { guard: 'isBusy', target: 'editing', actions: ['storeFieldErrors', 'forgetBusy'] },
          { target: 'failed' },
        ],
      },
    },
    busy: {
      description:
        'SingleRegistration, error busy: the server is busy with other pictures (429, with a Retry-After); "busy, sending it again" shows over the form as the person filled it, and the same registration goes again once the wait is over, at most five times before the form asks to try again later.',
      meta: { screen: 'SingleRegistration', errorCode: 'busy' },
      tags: ['busy'],
      after: { busyRetry: 'submitting' },
    },
    registered: {
      description:
        'SingleRegistration: the person is registered; their user id, and whether the QR was mailed.',
      meta: { screen: 'SingleRegistration' },
      on: { again: { target: 'editing', actions: 'reset' } },
    },
    rejected: {
      description:
        'SingleRegistration: the registration was rejected; the reason (spec §8 singles) and its user registration code, and the form again.',
      meta: { screen: 'SingleRegistration' },
      tags: ['error'],
      on: { again: { target: 'editing' } },
      initial: 'unknown',
      states: {
        documentExpired: {
          description: 'Error document-expired (reason selfie_not_provided, code 1): no usable face image.',
          meta: { errorCode: 'document-expired' },
        },
        embeddingFailed: {
          description:
            'Error embedding-failed (reason embedding_generation_failed, code 1): the image could not be processed.',
          meta: { errorCode: 'embedding-failed' },
        },
        idAlreadyUsed: {
          description: 'Error id-already-used (reason acs_id_already_in_use, code 2): the acs_id is taken.',
          meta: { errorCode: 'id-already-used' },
        },
        qrGenerationFailed: {
          description:
            'Error qr-generation-failed (reason qr_generation_failed, code 3): no QR could be made.',
          meta: { errorCode: 'qr-generation-failed' },
        },
        unknown: {
          description: 'Error unknown (code 0): any other reason.',
          meta: { errorCode: 'unknown' },
        },
      },
    },
    failed: {
      description:
        'SingleRegistration: the registration could not be sent (no answer, or the server failed).',
      meta: { screen: 'SingleRegistration' },
      tags: ['error'],
      on: {
        submit: { target: 'submitting', actions: 'storeBody' },
        again: { target: 'editing' },
      },
    },
  },
});
