import { assign, fromPromise, setup } from 'xstate';
import { errorOf, outputOf } from './actor-events';

// ResetCredentials (spec §2, public): a person who lost access asks for a reset by email; the mail carries a link
// (/reset-credentials?token=…) that expires in 30 minutes and works once. The link comes in as one event,
// link.opened; redeeming it needs the person signed in (the link is theirs alone), revokes every credential they
// hold and shows the new 15-day QR.

/** Why redeeming a link failed (the ResetCredentials texts resetCredentials.refused.*). */
export type ResetRefusal =
  | 'reset_link_expired'
  | 'reset_link_used'
  | 'reset_link_not_found'
  | 'forbidden'
  | 'unknown';

/** What the actors reject with: the HTTP status (0 without an answer) and the problem's code. */
export interface ResetError {
  status: number;
  code?: string;
  /** The server's own words (detail, else title, else status text): the fallback for a code without words. */
  text?: string;
}

/** The new QR credential (POST /internal/credential-resets/redeem). */
export interface ResetCredential {
  user_id: string;
  sid: string;
  starts_at: string;
  ends_at: string;
  revoked: number;
}

export interface CredentialResetContext {
  email: string | null;
  /** The token of the mailed link, for the way back after signing in. */
  token: string | null;
  credential: ResetCredential | null;
  /** An object URL of the new QR's PNG, once loaded. */
  qrUrl: string | null;
  /** Why a redemption could not be made, when the server refused it with a code no refusal state names. */
  problem: { code: string; text: string | null } | null;
}

export type CredentialResetEvent =
  | { type: 'reset.requested'; email: string }
  | { type: 'link.opened'; token: string }
  /** The same link again, after a failure that was no refusal of the link (no answer, a server fault). */
  | { type: 'link.retry' };

/**
 * The refusal a failed redemption is (the problem code, else its status). A conflict with a code the portal does not
 * know is no claim that the link was used: it is "could not be reset", which may be tried again.
 */
export function resetRefusalOf(error: unknown): ResetRefusal {
  const { status, code } = (error ?? {}) as Partial<ResetError>;
  if (code === 'reset_link_expired' || (status === 410 && !code)) return 'reset_link_expired';
  if (code === 'reset_link_used' || (status === 409 && !code)) return 'reset_link_used';
  if (code === 'reset_link_not_found' || status === 404 || status === 422) return 'reset_link_not_found';
  // The account may not do this (the API client has renewed the token once already): redeeming again cannot help.
  if (status === 403) return 'forbidden';
  return 'unknown';
}

export const credentialResetMachine = setup({
  types: {
    context: {} as CredentialResetContext,
    events: {} as CredentialResetEvent,
  },
  actors: {
    // Placeholders: src/actors/account.ts provides the calls (src/api/accounts).
    requestReset: fromPromise<void, { email: string }>(async () => {
      throw new Error('requestReset is provided by src/actors/account.ts');
    }),
    redeemReset: fromPromise<ResetCredential, { token: string }>(async () => {
      throw new Error('redeemReset is provided by src/actors/account.ts');
    }),
    fetchQrImage: fromPromise<string, { userId: string; sid: string }>(async () => {
      throw new Error('fetchQrImage is provided by src/actors/account.ts');
    }),
  },
  actions: {
    storeEmail: assign(({ context, event }) =>
      event.type === 'reset.requested' ? { email: event.email.trim() } : context,
    ),
    storeToken: assign(({ context, event }) =>
      event.type === 'link.opened' ? { token: event.token } : context,
    ),
    storeCredential: assign({ credential: ({ event }) => outputOf<ResetCredential>(event) }),
    storeProblem: assign({
      problem: ({ event }) => {
        const { status, code, text } = (errorOf(event) ?? {}) as Partial<ResetError>;
        // The refusals the API client leaves to the screen; any other failure it says itself, in a notice.
        return code && status && [400, 404, 409, 410, 422].includes(status)
          ? { code, text: text ?? null }
          : null;
      },
    }),
    storeQr: assign({ qrUrl: ({ event }) => outputOf<string>(event) }),
  },
  guards: {
    /** Someone is signed in (the link redeems only for its own account); provided by src/actors. */
    isSignedIn: () => false,
    hasCode: ({ event }, params: { code: ResetRefusal }) => resetRefusalOf(errorOf(event)) === params.code,
  },
}).createMachine({
  id: 'credentialReset',
  description:
    'ResetCredentials (spec §2, public): ask for a reset by email (the same answer whether or not the address is known), then the mailed link, after signing in, revokes every credential of the person and shows the new 15-day QR. A link is refused when it has expired (reset_link_expired, 30 minutes), was already used (reset_link_used) or is unknown (reset_link_not_found); a 403 (forbidden) says this account may not reset, and retrying cannot help.',
  context: { email: null, token: null, credential: null, qrUrl: null, problem: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'ResetCredentials: the email form.',
      meta: { screen: 'ResetCredentials' },
      on: {
        'reset.requested': { target: 'requesting', actions: 'storeEmail' },
        'link.opened': { target: 'waitingForSession', actions: 'storeToken' },
      },
    },
    requesting: {
      description: 'ResetCredentials, busy: the request is being sent.',
      meta: { screen: 'ResetCredentials' },
      tags: ['busy'],
      invoke: {
        id: 'requestReset',
        src: 'requestReset',
        input: ({ context }) => ({ email: context.email ?? '' }),
        onDone: 'sent',
        onError: 'requestFailed',
      },
    },
    sent: {
      description:
        'ResetCredentials: "if the address is yours, a mail with a link is on its way; it expires in 30 minutes"; the form may ask again.',
      meta: { screen: 'ResetCredentials' },
      on: { 'reset.requested': { target: 'requesting', actions: 'storeEmail' } },
    },
    requestFailed: {
      description:
        'ResetCredentials: the request could not be sent (no answer, or the server failed); the form to try again.',
      meta: { screen: 'ResetCredentials' },
      tags: ['error'],
      on: { 'reset.requested': { target: 'requesting', actions: 'storeEmail' } },
    },
    waitingForSession: {
      description: 'A link was opened: redeemed at once for someone signed in, else sign in first.',
      always: [{ guard: 'isSignedIn', target: 'redeeming' }, { target: 'signInNeeded' }],
    },
    signInNeeded: {
      description:
        'ResetCredentials: "sign in to finish the reset" and a Log in button that comes back to this link.',
      meta: { screen: 'ResetCredentials' },
      on: { 'link.opened': { target: 'waitingForSession', actions: 'storeToken' } },
    },
    redeeming: {
      description:
        'ResetCredentials, busy: the link is checked, every credential revoked and a new QR issued.',
      meta: { screen: 'ResetCredentials' },
      tags: ['busy'],
      invoke: {
        id: 'redeemReset',
        src: 'redeemReset',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: { target: 'done', actions: 'storeCredential' },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'reset_link_expired' } },
            target: 'refused.expired',
          },
          { guard: { type: 'hasCode', params: { code: 'reset_link_used' } }, target: 'refused.used' },
          {
            guard: { type: 'hasCode', params: { code: 'reset_link_not_found' } },
            target: 'refused.notFound',
          },
          { guard: { type: 'hasCode', params: { code: 'forbidden' } }, target: 'refused.forbidden' },
          { target: 'refused.failed', actions: 'storeProblem' },
        ],
      },
    },
    refused: {
      description: 'ResetCredentials: why the link was refused, and the email form to ask for a new one.',
      meta: { screen: 'ResetCredentials' },
      tags: ['error'],
      on: { 'reset.requested': { target: 'requesting', actions: 'storeEmail' } },
      initial: 'failed',
      states: {
        expired: {
          description: 'Error reset_link_expired: the link is more than 30 minutes old; ask for a new one.',
          meta: { errorCode: 'reset_link_expired' },
        },
        used: {
          description: 'Error reset_link_used: the link was already used; it works once.',
          meta: { errorCode: 'reset_link_used' },
        },
        notFound: {
          description:
            'Error reset_link_not_found: no such link for this account (or it is not a link at all).',
          meta: { errorCode: 'reset_link_not_found' },
        },
        forbidden: {
          description:
            'Error forbidden (403): this account may not reset its credentials, and redeeming the link again cannot change that; ask for a new link, or staff.',
          meta: { errorCode: 'forbidden' },
        },
        failed: {
          description:
            'The link could not be checked (no answer, the server failed, or no credentials to reset); the link may still be good: Try again redeems it again.',
          meta: { problem: 'unknown' },
          on: { 'link.retry': '#credentialReset.redeeming' },
        },
      },
    },
    done: {
      description: 'ResetCredentials: every old credential is revoked; the new QR and its validity.',
      meta: { screen: 'ResetCredentials' },
      initial: 'loadingQr',
      states: {
        loadingQr: {
          description: 'The new QR image is being loaded.',
          invoke: {
            id: 'fetchQrImage',
            src: 'fetchQrImage',
            input: ({ context }) => ({
              userId: context.credential?.user_id ?? '',
              sid: context.credential?.sid ?? '',
            }),
            onDone: { target: 'shown', actions: 'storeQr' },
            onError: 'qrUnavailable',
          },
        },
        shown: { description: 'The new QR, large, with its validity.' },
        qrUnavailable: {
          description: 'The QR image could not be loaded; the validity shows, and home has the QR.',
        },
      },
    },
  },
});
