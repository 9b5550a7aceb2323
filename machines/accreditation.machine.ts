import { assign, fromPromise, setup } from 'xstate';
import type { Credential, CredentialState } from '../contract/api/credentials';
import { msUntilExpiry } from '../src/domain/accreditations';
import { errorCodeOf, outputOf } from './actor-events';

// One accreditation's life (spec §3 Accreditation, §4 "Accreditation: active, refreshed by setting state active,
// or revoked", §9 "QR credential lasts 15 days, extendable"). UserHome runs it on the person's current QR,
// AccreditationDetail on the one in its path. src/actors/accreditations.ts provides the effects.

/** What loadAccreditation gives: the credential, its holder's name and, for a valid QR one, its PNG image. */
export interface LoadedAccreditation {
  credential: Credential;
  holder: string;
  qrImage: Blob | null;
}

/** Saving the printable PDF, or printing it. */
export type PdfMode = 'download' | 'print';

/** What the actors reject with: a 404 is its own code, anything else is "unavailable". */
export interface AccreditationError {
  code: 'credential_not_found' | 'credential_unavailable';
}

export interface AccreditationInput {
  /** The person's user id or account id (GET /public/credentials/{id}). */
  userId: string;
  /** The credential's sid; null means the person's current QR credential (UserHome). */
  sid: string | null;
  /**
   * The holder's name when the screen has it already (MyAccreditations' list): with a sid, only that credential
   * is asked for, not the person's whole list again.
   */
  holder?: string | null;
}

export interface AccreditationContext extends AccreditationInput {
  credential: Credential | null;
  holder: string | null;
  qrImage: Blob | null;
  pdfMode: PdfMode;
}

export type AccreditationEvent =
  | { type: 'accreditation.extend' }
  | { type: 'accreditation.revoke' }
  | { type: 'revoke.confirm' }
  | { type: 'revoke.cancel' }
  | { type: 'accreditation.retry' }
  | { type: 'pdf.get'; mode: PdfMode };

export const accreditationMachine = setup({
  types: {
    context: {} as AccreditationContext,
    events: {} as AccreditationEvent,
    input: {} as AccreditationInput,
  },
  actors: {
    loadAccreditation: fromPromise<
      LoadedAccreditation,
      { userId: string; sid: string | null; holder: string | null }
    >(async () => {
      throw new Error('loadAccreditation is provided by src/actors/accreditations.ts');
    }),
    changeAccreditationState: fromPromise<
      Credential,
      { userId: string; sid: string; state: CredentialState }
    >(async () => {
      throw new Error('changeAccreditationState is provided by src/actors/accreditations.ts');
    }),
    fetchPdf: fromPromise<Blob, { userId: string; sid: string }>(async () => {
      throw new Error('fetchPdf is provided by src/actors/accreditations.ts');
    }),
  },
  actions: {
    storeAccreditation: assign(({ event }) => {
      const loaded = outputOf<LoadedAccreditation>(event);
      return {
        credential: loaded.credential,
        holder: loaded.holder,
        qrImage: loaded.qrImage,
        sid: loaded.credential.sid,
      };
    }),
    storePdfMode: assign({ pdfMode: ({ event }) => (event.type === 'pdf.get' ? event.mode : 'download') }),
    /** Saves or prints the PDF the fetchPdf actor gave (src/actors/accreditations.ts). */
    deliverPdf: () => {},
    storeCredential: assign({ credential: ({ event }) => outputOf<Credential>(event) }),
  },
  guards: {
    hasCode: ({ event }, params: { code: AccreditationError['code'] }) => errorCodeOf(event) === params.code,
    isRevoked: ({ context }) => context.credential?.state === 'revoked',
    isValid: ({ context }) => context.credential?.valid === true,
    hasEnd: ({ context }) => context.credential?.ends_at != null,
  },
  delays: {
    // The app provides the real clock (src/actors/accreditations.ts); tests a simulated one.
    untilExpiry: ({ context }) => msUntilExpiry(context.credential?.ends_at ?? null, Date.now()),
  },
}).createMachine({
  id: 'accreditation',
  description:
    'One accreditation (spec §3 Accreditation: qr with starts_at and ends_at, face, proof; spec §4: active, refreshed by setting state active, or revoked; spec §9: a QR credential lasts 15 days and can be extended). A QR one expires by itself when its end comes. Shown by UserHome (the current QR) and AccreditationDetail.',
  context: ({ input }) => ({
    userId: input.userId,
    sid: input.sid,
    credential: null,
    holder: input.holder ?? null,
    qrImage: null,
    pdfMode: 'download',
  }),
  initial: 'loading',
  states: {
    loading: {
      description:
        'A spinner while GET /public/credentials/{userId}/sids/{sid} (JSON, and the PNG of a valid QR) loads.',
      tags: ['busy'],
      invoke: {
        id: 'loadAccreditation',
        src: 'loadAccreditation',
        input: ({ context }) => ({ userId: context.userId, sid: context.sid, holder: context.holder }),
        onDone: { target: 'checking', actions: 'storeAccreditation' },
        onError: [
          { guard: { type: 'hasCode', params: { code: 'credential_not_found' } }, target: 'notFound' },
          { target: 'loadFailed' },
        ],
      },
    },
    checking: {
      description: 'Decides from the answer: revoked, valid (active) or past its end (expired).',
      always: [
        { guard: 'isRevoked', target: 'revoked' },
        { guard: 'isValid', target: 'active' },
        { target: 'expired' },
      ],
    },
    active: {
      description:
        'The accreditation is valid: the QR large with its window DD/MM/YYYY HH:mm, the PDF, and the extend and revoke buttons.',
      tags: ['valid'],
      initial: 'choosing',
      on: {
        'accreditation.extend': 'extending',
        'accreditation.revoke': 'confirmingRevoke',
      },
      states: {
        choosing: {
          description: 'A QR accreditation has an end; face and proof ones do not.',
          always: [{ guard: 'hasEnd', target: 'timed' }, { target: 'lasting' }],
        },
        timed: {
          description:
            'A QR accreditation: valid until ends_at, when it expires by itself; its printable PDF can be saved or printed.',
          after: { untilExpiry: '#accreditation.expired' },
          initial: 'ready',
          states: {
            ready: {
              description: 'The download and print buttons of the PDF.',
              on: { 'pdf.get': { target: 'preparingPdf', actions: 'storePdfMode' } },
            },
            preparingPdf: {
              description: 'GET /public/credentials/{userId}/sids/{sid} as PDF, then saved or printed.',
              tags: ['pdf'],
              invoke: {
                id: 'fetchPdf',
                src: 'fetchPdf',
                input: ({ context }) => ({ userId: context.userId, sid: context.sid ?? '' }),
                onDone: { target: 'ready', actions: 'deliverPdf' },
                onError: 'pdfFailed',
              },
            },
            pdfFailed: {
              description:
                'Error pdf_unavailable: the PDF could not be made or fetched; the buttons try again.',
              meta: { errorCode: 'pdf_unavailable' },
              on: { 'pdf.get': { target: 'preparingPdf', actions: 'storePdfMode' } },
            },
          },
        },
        lasting: {
          description: 'A face or proof accreditation: valid while active (spec §3).',
        },
      },
    },
    confirmingRevoke: {
      description:
        'The confirmation dialog: revoking ends the accreditation now and cannot be undone; Revoke or Cancel.',
      tags: ['valid'],
      on: {
        'revoke.confirm': 'revoking',
        'revoke.cancel': 'active',
      },
    },
    extending: {
      description:
        'PUT /public/credentials/{userId}/sids/{sid}/state with state active: a new 15-day window from now.',
      tags: ['busy'],
      invoke: {
        id: 'changeAccreditationState',
        src: 'changeAccreditationState',
        input: ({ context }) => ({
          userId: context.userId,
          sid: context.sid ?? '',
          state: 'active' as const,
        }),
        onDone: { target: 'checking', actions: 'storeCredential' },
        onError: 'extendFailed',
      },
    },
    revoking: {
      description: 'PUT /public/credentials/{userId}/sids/{sid}/state with state revoked.',
      tags: ['busy'],
      invoke: {
        id: 'changeAccreditationState',
        src: 'changeAccreditationState',
        input: ({ context }) => ({
          userId: context.userId,
          sid: context.sid ?? '',
          state: 'revoked' as const,
        }),
        onDone: { target: 'checking', actions: 'storeCredential' },
        onError: 'revokeFailed',
      },
    },
    expired: {
      description:
        'A QR accreditation past its end (spec §3: valid only while its end is in the future): shown as expired, with extend.',
      on: { 'accreditation.extend': 'extending' },
    },
    revoked: {
      description:
        'The accreditation was revoked: no door lets it in any more; a new one is asked for instead.',
    },
    notFound: {
      description: 'Error credential_not_found: the person holds no such accreditation (a 404).',
      tags: ['error'],
      meta: { errorCode: 'credential_not_found' },
    },
    loadFailed: {
      description: 'Error credential_unavailable: the accreditation could not be loaded; a Retry button.',
      tags: ['error'],
      meta: { errorCode: 'credential_unavailable' },
      on: { 'accreditation.retry': 'loading' },
    },
    extendFailed: {
      description:
        'Error extend_failed: the new 15-day window was refused or not reached; Retry reloads the accreditation.',
      tags: ['error'],
      meta: { errorCode: 'extend_failed' },
      on: { 'accreditation.retry': 'loading' },
    },
    revokeFailed: {
      description:
        'Error revoke_failed: revoking was refused or not reached; Retry reloads the accreditation.',
      tags: ['error'],
      meta: { errorCode: 'revoke_failed' },
      on: { 'accreditation.retry': 'loading' },
    },
  },
});
