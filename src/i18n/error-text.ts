import type { IntlShape } from 'react-intl';

// A server's code in the person's words: common.errors.{code} when the catalogue has words for it, and
// otherwise the spec's fallback (§8: "other errors show detail, else title, else status text") inside a sentence of
// the person's language, never an empty text, an id or a bare code. `npm run i18n:check` makes sure every code the
// reference server answers has words (scripts/error-codes.ts); this is for the codes of another server, a newer
// one, or a catalogue part that has not loaded.

/** Codes become message ids, so only plain identifier characters are let through. */
const CODE = /^[A-Za-z0-9_./-]{1,100}$/;

export const ERROR_MESSAGE_PREFIX = 'common.errors.';

/** The message id of a code: common.errors.{code} (common.errors.unknown for a code that is not an identifier). */
export function errorMessageId(code: string): string {
  return `${ERROR_MESSAGE_PREFIX}${CODE.test(code) ? code : 'unknown'}`;
}

/** The ids of the fallback's own words (loaded with the first screens: src/i18n/first-screen.ts). */
export const SERVER_PROBLEM_ID = 'common.serverProblem';
export const UNKNOWN_PROBLEM_ID = 'common.errors.unknown';

type Intl = Pick<IntlShape, 'messages' | 'formatMessage'>;
type Values = Record<string, string | number>;

/**
 * Whether the catalogue has words for an id. react-intl is given an empty message for an id it lacks (catalogue.ts
 * withoutIds, so that it never prints the id), which formats as '': that counts as no words.
 */
export function hasMessage(intl: Pick<IntlShape, 'messages'>, id: string): boolean {
  const message: unknown = (intl.messages as Record<string, unknown>)[id];
  if (typeof message === 'string') return message.trim() !== '';
  return Array.isArray(message) && message.length > 0;
}

/**
 * What the person reads when there are no words for a code: the server's own text (its detail, else its title,
 * else the HTTP status text) in the sentence common.serverProblem, else common.errors.unknown.
 */
export function fallbackText(intl: Intl, serverText?: string | null): string {
  const detail = serverText?.trim();
  // The ids are written out in the calls, where the message extractor (npm run i18n:check) finds them.
  if (detail) {
    return hasMessage(intl, SERVER_PROBLEM_ID)
      ? intl.formatMessage({ id: 'common.serverProblem' }, { detail })
      : detail;
  }
  if (hasMessage(intl, UNKNOWN_PROBLEM_ID)) return intl.formatMessage({ id: 'common.errors.unknown' });
  // No catalogue at all (it failed to load): still not an empty notice.
  return '⚠';
}

/** A message by id, or the fallback when the catalogue has no words for it. Never ''. */
export function messageText(intl: Intl, id: string, values?: Values, serverText?: string | null): string {
  if (hasMessage(intl, id)) {
    const text = intl.formatMessage({ id }, values);
    if (text.trim() !== '') return text;
  }
  return fallbackText(intl, serverText);
}

/**
 * A server's code (a problem's code, a field error's, a refusal's) in words: common.errors.{code}, else the
 * fallback with the server's text when there is one. Never '', never the code or an id.
 */
export function errorText(
  intl: Intl,
  code: string | null | undefined,
  options: { values?: Values; serverText?: string | null } = {},
): string {
  if (!code) return fallbackText(intl, options.serverText);
  return messageText(intl, errorMessageId(code), options.values, options.serverText);
}

/**
 * Whether a notice's reference (the request id of the answer) is shown: for anything but a code that has words of
 * its own, which is an answer the portal expected and explains by itself.
 */
export function showsReference(intl: Pick<IntlShape, 'messages'>, messageId: string | undefined): boolean {
  return !(
    messageId?.startsWith(ERROR_MESSAGE_PREFIX) &&
    messageId !== UNKNOWN_PROBLEM_ID &&
    hasMessage(intl, messageId)
  );
}

/** The line under an unexpected error: "Reference: {id}", or the bare id when the catalogue has not loaded. */
export function referenceText(intl: Intl, id: string): string {
  return hasMessage(intl, 'common.reference') ? intl.formatMessage({ id: 'common.reference' }, { id }) : id;
}

/** Whether a code has words of its own (common.errors.{code}). */
export function hasErrorWords(intl: Pick<IntlShape, 'messages'>, code: string | null | undefined): boolean {
  return !!code && hasMessage(intl, errorMessageId(code));
}
