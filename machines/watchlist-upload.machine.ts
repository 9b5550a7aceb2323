import { assign, fromPromise, setup } from 'xstate';
import type { WatchlistStored } from '../contract/api/audit';
import { refuseWatchlistFile, type WatchlistPreview } from '../contract/domain/watchlist';
import { errorCodeOf, errorOf, outputOf } from './actor-events';

// UploadWatchlist and UploadWatchlistResult (spec §2 upload-watchlist, upload-watchlist-result with success true or
// false; §3 Watchlist upload: legal domain and file; §5 the file is csv, at most 10 MB; §7 POST /watchlists when
// useWatch, else POST /public/watchlists; §8 the watchlist error page). A file too large or not a csv is refused
// before a byte of it is read; the rest is parsed in a worker for the preview (first rows, valid and invalid
// counts) before anything is sent. The server checks everything again and stores every row or none.

/** What uploadWatchlist rejects with: the HTTP status (0 without an answer), the problem's code and detail. */
export interface WatchlistUploadError {
  status: number;
  code?: string;
  detail?: string;
  /** The id the server kept the refusal under (the result route carries it). */
  uploadId?: string;
  /** What is wrong with the file, when the server says (not_csv: a row too long, a quote; and the line). */
  problem?: { code: string; line?: number; max?: number };
  /** What a refusal read back by id says it was about (the form's file and domain are gone after a reload). */
  domain?: string | null;
  fileName?: string | null;
}

export interface ChosenFile {
  name: string;
  size: number;
  type: string;
}

export interface WatchlistUploadContext {
  file: (ChosenFile & { blob: Blob }) | null;
  domain: string | null;
  preview: WatchlistPreview | null;
  stored: WatchlistStored | null;
  refusal: WatchlistUploadError | null;
  /** The upload the result route names, while it is read from the server. */
  opening: string | null;
}

export type WatchlistUploadEvent =
  | { type: 'file.chosen'; file: Blob & ChosenFile }
  | { type: 'upload.confirmed'; domain: string }
  | { type: 'upload.again' }
  | { type: 'result.opened'; id: string }
  | { type: 'result.retried' };

type Code = 'file_too_large' | 'not_csv' | 'invalid_rows' | 'unknown_domain' | 'upload_not_found';

/** The id of the upload the result shows (a stored version's id, or the refusal's), for the result route. */
export const shownUploadId = (context: WatchlistUploadContext): string | undefined =>
  context.stored?.watchlist_id ?? context.refusal?.uploadId;

export const watchlistUploadMachine = setup({
  types: {
    context: {} as WatchlistUploadContext,
    events: {} as WatchlistUploadEvent,
  },
  actors: {
    // Placeholders: src/actors/watchlists.ts parses in a worker and sends the multipart upload.
    parseFile: fromPromise<WatchlistPreview, { file: Blob }>(async () => {
      throw new Error('parseFile is provided by src/actors/watchlists.ts');
    }),
    uploadWatchlist: fromPromise<WatchlistStored, { file: Blob; name: string; domain: string }>(async () => {
      throw new Error('uploadWatchlist is provided by src/actors/watchlists.ts');
    }),
    // Resolves with a stored version; rejects with a WatchlistUploadError for a kept refusal or an unknown id.
    fetchUpload: fromPromise<WatchlistStored, { id: string }>(async () => {
      throw new Error('fetchUpload is provided by src/actors/watchlists.ts');
    }),
  },
  actions: {
    storeFile: assign(({ context, event }) =>
      event.type === 'file.chosen'
        ? {
            file: { name: event.file.name, size: event.file.size, type: event.file.type, blob: event.file },
            preview: null,
            stored: null,
            refusal: null,
            opening: null,
          }
        : context,
    ),
    storeOpening: assign(({ context, event }) =>
      event.type === 'result.opened'
        ? { opening: event.id, file: null, domain: null, preview: null, stored: null, refusal: null }
        : context,
    ),
    storePreview: assign({ preview: ({ event }) => outputOf<WatchlistPreview>(event) }),
    storeDomain: assign(({ context, event }) =>
      event.type === 'upload.confirmed' ? { domain: event.domain } : context,
    ),
    storeStored: assign({ stored: ({ event }) => outputOf<WatchlistStored>(event) }),
    storeRefusal: assign({
      refusal: ({ event }) => {
        const error = errorOf(event) as Partial<WatchlistUploadError> | undefined;
        return {
          status: error?.status ?? 0,
          code: error?.code,
          detail: error?.detail,
          uploadId: error?.uploadId,
          problem: error?.problem,
          domain: error?.domain,
          fileName: error?.fileName,
        };
      },
    }),
    forget: assign({ file: null, domain: null, preview: null, stored: null, refusal: null, opening: null }),
  },
  guards: {
    isAnotherUpload: ({ context, event }) =>
      event.type === 'result.opened' && event.id !== shownUploadId(context) && event.id !== context.opening,
    fileTooLarge: ({ event }) =>
      event.type === 'file.chosen' && refuseWatchlistFile(event.file) === 'file_too_large',
    fileNotCsv: ({ event }) => event.type === 'file.chosen' && refuseWatchlistFile(event.file) === 'not_csv',
    previewUnreadable: ({ event }) => !outputOf<WatchlistPreview>(event).ok,
    previewHasInvalidRows: ({ event }) => {
      const preview = outputOf<WatchlistPreview>(event);
      return preview.ok && preview.invalid > 0;
    },
    hasCode: ({ event }, params: { code: Code }) => errorCodeOf(event) === params.code,
  },
}).createMachine({
  id: 'watchlistUpload',
  description:
    'UploadWatchlist → UploadWatchlistResult (spec §2, §3 Watchlist upload, §5 csv ≤ 10 MB, §7 POST /watchlists or /public/watchlists, §8 watchlist error page): choose a legal domain and a csv; a file too large (file_too_large) or not a csv (not_csv) is refused before it is read; a worker parses it for the preview (first rows, valid and invalid counts; invalid_rows when any row is bad); the upload stores every row or none. When the upload gets no answer or the server fails (upload_failed) the form stays, everything kept, and Upload sends it again. The result says what was stored or why not: file_too_large, not_csv, invalid_rows, unknown_domain; its route carries the id of the upload, so a reload (or the enforcement source link of the audit) reads it back from the server, or upload_not_found, or result_unavailable when it cannot be read (Read again).',
  context: { file: null, domain: null, preview: null, stored: null, refusal: null, opening: null },
  initial: 'choosing',
  on: {
    'file.chosen': [
      { guard: 'fileTooLarge', target: '.refused.file_too_large', actions: 'storeFile' },
      { guard: 'fileNotCsv', target: '.refused.not_csv', actions: 'storeFile' },
      { target: '.parsing', actions: 'storeFile' },
    ],
    // The result route opened with an upload's id (a reload, a bookmark, the audit's enforcement source link).
    'result.opened': { guard: 'isAnotherUpload', target: '.opening', actions: 'storeOpening' },
  },
  states: {
    choosing: {
      description: "UploadWatchlist: the legal domain (the tenant's watchlistDomains) and the file chooser.",
      meta: { screen: 'UploadWatchlist' },
    },
    refused: {
      description:
        'UploadWatchlist with why the chosen file cannot be sent, and the chooser to pick another.',
      meta: { screen: 'UploadWatchlist' },
      tags: ['error'],
      initial: 'not_csv',
      states: {
        file_too_large: {
          description: 'Error file_too_large: the file is larger than 10 MB; nothing was read or sent.',
          meta: { errorCode: 'file_too_large' },
        },
        not_csv: {
          description:
            'Error not_csv: the file is not a csv (its name or type), not UTF-8 text, or its rows cannot be read (no id_number and birth_date columns, an unclosed quote).',
          meta: { errorCode: 'not_csv' },
        },
      },
    },
    parsing: {
      description: 'UploadWatchlist, reading the file in a worker.',
      meta: { screen: 'UploadWatchlist' },
      tags: ['busy'],
      invoke: {
        id: 'parseFile',
        src: 'parseFile',
        input: ({ context }) => ({ file: context.file?.blob ?? new Blob() }),
        onDone: [
          { guard: 'previewUnreadable', target: 'refused.not_csv', actions: 'storePreview' },
          { guard: 'previewHasInvalidRows', target: 'preview.invalidRows', actions: 'storePreview' },
          { target: 'preview.ready', actions: 'storePreview' },
        ],
        onError: 'refused.not_csv',
      },
    },
    preview: {
      description: 'UploadWatchlist with the preview: the first rows, the valid and invalid counts.',
      meta: { screen: 'UploadWatchlist' },
      initial: 'ready',
      states: {
        ready: {
          description: 'Every row is valid: the Upload button sends the file for the chosen legal domain.',
          on: { 'upload.confirmed': { target: '#watchlistUpload.uploading', actions: 'storeDomain' } },
        },
        invalidRows: {
          description:
            'Error invalid_rows: some rows lack a valid id number or birth date (each listed with its line); the file cannot be sent as it is.',
          meta: { errorCode: 'invalid_rows' },
          tags: ['error'],
        },
        sendFailed: {
          description:
            'Error upload_failed: the upload got no answer, or the server failed or refused it for no reason about the file; nothing was stored. The file, its preview and the legal domain are kept: Upload sends them again.',
          meta: { errorCode: 'upload_failed' },
          tags: ['error'],
          on: { 'upload.confirmed': { target: '#watchlistUpload.uploading', actions: 'storeDomain' } },
        },
      },
      on: { 'upload.again': { target: 'choosing', actions: 'forget' } },
    },
    uploading: {
      description: 'UploadWatchlist, sending the file.',
      meta: { screen: 'UploadWatchlist' },
      tags: ['busy'],
      invoke: {
        id: 'uploadWatchlist',
        src: 'uploadWatchlist',
        input: ({ context }) => ({
          file: context.file?.blob ?? new Blob(),
          name: context.file?.name ?? 'watchlist.csv',
          domain: context.domain ?? '',
        }),
        onDone: { target: 'stored', actions: 'storeStored' },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'file_too_large' } },
            target: 'failed.file_too_large',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'not_csv' } },
            target: 'failed.not_csv',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'invalid_rows' } },
            target: 'failed.invalid_rows',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'unknown_domain' } },
            target: 'failed.unknown_domain',
            actions: 'storeRefusal',
          },
          // Not an answer about the file (no answer, a server failure, a code the portal does not know): the
          // person stays on the form with everything chosen, and sends it again.
          { target: 'preview.sendFailed', actions: 'storeRefusal' },
        ],
      },
    },
    opening: {
      description:
        "UploadWatchlistResult, reading the outcome of the upload the route names from the server (after a reload, or from the audit's enforcement source link).",
      meta: { screen: 'UploadWatchlistResult' },
      tags: ['busy'],
      invoke: {
        id: 'fetchUpload',
        src: 'fetchUpload',
        input: ({ context }) => ({ id: context.opening ?? '' }),
        onDone: { target: 'stored', actions: 'storeStored' },
        onError: [
          {
            guard: { type: 'hasCode', params: { code: 'upload_not_found' } },
            target: 'failed.upload_not_found',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'file_too_large' } },
            target: 'failed.file_too_large',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'not_csv' } },
            target: 'failed.not_csv',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'invalid_rows' } },
            target: 'failed.invalid_rows',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'unknown_domain' } },
            target: 'failed.unknown_domain',
            actions: 'storeRefusal',
          },
          // No answer about the upload: whether it was stored is not known, so the result says neither.
          { target: 'unread', actions: 'storeRefusal' },
        ],
      },
    },
    unread: {
      description:
        'UploadWatchlistResult, error result_unavailable: the outcome of the upload the route names could not be read (no answer, or the server failed); it says nothing of whether the list was stored, and Read again asks once more.',
      meta: { screen: 'UploadWatchlistResult', errorCode: 'result_unavailable' },
      tags: ['error'],
      on: {
        'result.retried': { target: 'opening' },
        'upload.again': { target: 'choosing', actions: 'forget' },
      },
    },
    stored: {
      description:
        'UploadWatchlistResult (success true): the list stored for the legal domain, its rows, its version (id and time); the previous version is kept.',
      meta: { screen: 'UploadWatchlistResult', success: 'true' },
      on: { 'upload.again': { target: 'choosing', actions: 'forget' } },
    },
    failed: {
      description: 'UploadWatchlistResult (success false): why nothing was stored, and a way to try again.',
      meta: { screen: 'UploadWatchlistResult', success: 'false' },
      tags: ['error'],
      initial: 'upload_not_found',
      on: { 'upload.again': { target: 'choosing', actions: 'forget' } },
      states: {
        file_too_large: {
          description: 'Error file_too_large: the server refused a file larger than 10 MB (413).',
          meta: { errorCode: 'file_too_large' },
        },
        not_csv: {
          description: 'Error not_csv: the server could not read the file as a watchlist csv (422).',
          meta: { errorCode: 'not_csv' },
        },
        invalid_rows: {
          description: 'Error invalid_rows: the server found invalid rows and stored none (422).',
          meta: { errorCode: 'invalid_rows' },
        },
        unknown_domain: {
          description: "Error unknown_domain: the legal domain is not one of the tenant's (422).",
          meta: { errorCode: 'unknown_domain' },
        },
        upload_not_found: {
          description:
            'Error upload_not_found: the route names no upload of this tenant (404): nothing to show, and a way to upload.',
          meta: { errorCode: 'upload_not_found' },
        },
      },
    },
  },
});
