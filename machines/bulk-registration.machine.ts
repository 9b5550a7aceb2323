import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { BulkJob } from '../contract/api/bulk';
import type { MetadataProblem, RowProblem } from '../contract/domain/bulk';
import type { AcsIdSchema } from '../contract/domain/singles';
import { outputOf } from './actor-events';

// AddUsersFromPhotos (spec §2 portal menu "add users from photos", post_singles; §5 1000 elements per file, metadata
// not valid JSON or CSV, media not a valid or a corrupt zip, id already exists, email already in use). Staff pick a
// metadata file (JSON or CSV) and a zip of pictures; the browser checks both before anything is sent
// (contract/domain/bulk.ts: the zip's listing, every row against the tenant's acsIdSchema, pictures present and within
// bounds, no repeated row). Then the upload (with its progress), and the server's work on each row followed by
// polling the job (GET /public/singles/bulk/{jobId}); the end is a table of every row's outcome.

/** What makes the whole selection unusable: the metadata's problem, or the zip's. */
export type FatalProblem = MetadataProblem | { code: 'media_corrupt' };

/** The browser's check of the two files (src/actors/bulk.ts). */
export interface BulkCheck {
  rows: number;
  problems: RowProblem[];
  fatal: FatalProblem | null;
}

export interface BulkFiles {
  metadata: File;
  media: File;
}

/** The server refused the upload as a whole: its status and problem code (and details, e.g. count). */
export interface BulkRefusal {
  status: number;
  code?: string;
  count?: number;
}

export interface BulkRegistrationInput {
  acsIdSchema: AcsIdSchema;
}

export interface BulkRegistrationContext extends BulkRegistrationInput {
  files: BulkFiles | null;
  rowCount: number;
  problems: RowProblem[];
  fatal: FatalProblem | null;
  /** Upload progress, 0 to 1. */
  progress: number;
  jobId: string | null;
  job: BulkJob | null;
}

export type BulkRegistrationEvent =
  | { type: 'files.chosen'; metadata: File; media: File }
  | { type: 'upload' }
  | { type: 'upload.progress'; fraction: number }
  | { type: 'upload.accepted'; jobId: string; total: number }
  | { type: 'upload.refused'; refusal: BulkRefusal }
  | { type: 'upload.failed' }
  | { type: 'cancel' }
  | { type: 'again' }
  | { type: 'progress.retried' };

type FatalCode = 'media_corrupt' | 'metadata_invalid' | 'too_many_elements';

/** metadata_empty and metadata_columns are kinds of metadata_invalid (spec §5 "metadata not valid JSON or CSV"). */
const fatalCodeOf = (code: string | undefined): string | undefined =>
  code === 'metadata_empty' || code === 'metadata_columns' ? 'metadata_invalid' : code;

export const bulkRegistrationMachine = setup({
  types: {
    context: {} as BulkRegistrationContext,
    events: {} as BulkRegistrationEvent,
    input: {} as BulkRegistrationInput,
  },
  actors: {
    // Placeholders: src/actors/bulk.ts provides the real ones.
    checkFiles: fromPromise<BulkCheck, BulkFiles & { acsIdSchema: AcsIdSchema }>(async () => {
      throw new Error('checkFiles is provided by src/actors/bulk.ts');
    }),
    /** Sends upload.progress, then upload.accepted, upload.refused or upload.failed; stopping it aborts the upload. */
    uploadBatch: fromCallback<BulkRegistrationEvent, BulkFiles>(() => {
      throw new Error('uploadBatch is provided by src/actors/bulk.ts');
    }),
    fetchJob: fromPromise<BulkJob, { jobId: string }>(async () => {
      throw new Error('fetchJob is provided by src/actors/bulk.ts');
    }),
  },
  delays: {
    /** How often the server's progress is read while it registers the rows. */
    pollInterval: 1000,
  },
  actions: {
    storeFiles: assign(({ context, event }) =>
      event.type === 'files.chosen'
        ? {
            files: { metadata: event.metadata, media: event.media },
            rowCount: 0,
            problems: [],
            fatal: null,
            job: null,
            jobId: null,
          }
        : context,
    ),
    storeCheck: assign(({ event }) => {
      const check = outputOf<BulkCheck>(event);
      return { rowCount: check.rows, problems: check.problems, fatal: check.fatal };
    }),
    storeRefusal: assign(({ context, event }) => {
      if (event.type !== 'upload.refused') return context;
      const { code, count } = event.refusal;
      return {
        fatal:
          code === 'too_many_elements'
            ? { code, count: count ?? 0 }
            : code === 'media_corrupt'
              ? { code }
              : code === 'metadata_invalid'
                ? { code }
                : null,
      };
    }),
    resetProgress: assign({ progress: 0 }),
    storeProgress: assign(({ context, event }) =>
      event.type === 'upload.progress' ? { progress: Math.max(0, Math.min(1, event.fraction)) } : context,
    ),
    storeJobId: assign(({ context, event }) =>
      event.type === 'upload.accepted'
        ? {
            jobId: event.jobId,
            progress: 1,
            job: {
              job_id: event.jobId,
              status: 'running' as const,
              total: event.total,
              done: 0,
              accepted: 0,
              rejected: 0,
              rows: [],
            },
          }
        : context,
    ),
    storeJob: assign({ job: ({ event }) => outputOf<BulkJob>(event) }),
    reset: assign({
      files: null,
      rowCount: 0,
      problems: [],
      fatal: null,
      progress: 0,
      jobId: null,
      job: null,
    }),
  },
  guards: {
    hasRowProblems: ({ event }) => outputOf<BulkCheck>(event).problems.length > 0,
    // The check's fatal problem, or the upload's refusal (a 413 is payload_too_large whatever its body says).
    hasCode: ({ event }, params: { code: FatalCode | 'payload_too_large' }) => {
      if (event.type !== 'upload.refused')
        return fatalCodeOf(outputOf<BulkCheck>(event).fatal?.code) === params.code;
      if (params.code === 'payload_too_large') return event.refusal.status === 413;
      return fatalCodeOf(event.refusal.code) === params.code;
    },
    isFinished: ({ event }) => outputOf<BulkJob>(event).status !== 'running',
    /** The server failed (5xx) while taking the upload: a fault of its own, not a refusal of the files. */
    isServerFault: ({ event }) => event.type === 'upload.refused' && event.refusal.status >= 500,
  },
}).createMachine({
  id: 'bulkRegistration',
  description:
    'AddUsersFromPhotos ("Add users from photos", post_singles; spec §5): a metadata file (JSON or CSV, at most 1000 elements) and a zip of pictures, checked in the browser (media_corrupt, metadata_invalid, too_many_elements, a problem in some row), uploaded with its progress (upload_failed, server_error, payload_too_large), registered row by row on the server while the portal polls the job (progress_unavailable), and a table of every row: accepted, or rejected with its reason (email_already_in_use, acs_id_already_in_use…).',
  context: ({ input }) => ({
    ...input,
    files: null,
    rowCount: 0,
    problems: [],
    fatal: null,
    progress: 0,
    jobId: null,
    job: null,
  }),
  initial: 'choosing',
  states: {
    choosing: {
      description:
        'AddUsersFromPhotos: pick the metadata file and the zip of pictures; the expected columns.',
      meta: { screen: 'AddUsersFromPhotos' },
      on: { 'files.chosen': { target: 'checking', actions: 'storeFiles' } },
    },
    checking: {
      description:
        'AddUsersFromPhotos, busy: the browser reads the metadata and the zip and checks every row.',
      meta: { screen: 'AddUsersFromPhotos' },
      tags: ['busy'],
      // Files chosen again while the first ones are read (a slow phone, a big zip): the check starts over on the
      // new choice, which is the one the screen shows; nothing the person picked is dropped.
      on: { 'files.chosen': { target: 'checking', reenter: true, actions: 'storeFiles' } },
      invoke: {
        id: 'checkFiles',
        src: 'checkFiles',
        input: ({ context }) => ({ ...(context.files as BulkFiles), acsIdSchema: context.acsIdSchema }),
        onDone: [
          {
            guard: { type: 'hasCode', params: { code: 'media_corrupt' } },
            target: 'invalid.mediaCorrupt',
            actions: 'storeCheck',
          },
          {
            guard: { type: 'hasCode', params: { code: 'metadata_invalid' } },
            target: 'invalid.metadataInvalid',
            actions: 'storeCheck',
          },
          {
            guard: { type: 'hasCode', params: { code: 'too_many_elements' } },
            target: 'invalid.tooManyElements',
            actions: 'storeCheck',
          },
          { guard: 'hasRowProblems', target: 'invalid.rows', actions: 'storeCheck' },
          { target: 'ready', actions: 'storeCheck' },
        ],
        onError: 'invalid.unreadable',
      },
    },
    invalid: {
      description:
        'AddUsersFromPhotos: the selection cannot be sent; what is wrong, naming the row where it is about one, and the pickers again.',
      meta: { screen: 'AddUsersFromPhotos' },
      tags: ['error'],
      on: { 'files.chosen': { target: 'checking', actions: 'storeFiles' } },
      initial: 'rows',
      states: {
        mediaCorrupt: {
          description: 'Error media_corrupt: the media is not a zip, or a damaged one (spec §5).',
          meta: { errorCode: 'media_corrupt' },
        },
        metadataInvalid: {
          description:
            'Error metadata_invalid: the metadata is not valid JSON or CSV, lists nobody, or lacks a column (spec §5).',
          meta: { errorCode: 'metadata_invalid' },
        },
        tooManyElements: {
          description: 'Error too_many_elements: the metadata lists more than 1000 elements (spec §5).',
          meta: { errorCode: 'too_many_elements' },
        },
        rows: {
          description:
            'Error invalid_rows: some rows are wrong (email, names, acs_id, picture absent or out of bounds, a repeated row); each is listed with its row number.',
          meta: { errorCode: 'invalid_rows' },
        },
        unreadable: {
          description: 'Error file_unreadable: the browser could not read the chosen files.',
          meta: { errorCode: 'file_unreadable' },
        },
      },
    },
    ready: {
      description:
        'AddUsersFromPhotos: every row passed the checks; how many people will be registered, and Upload.',
      meta: { screen: 'AddUsersFromPhotos' },
      on: {
        'files.chosen': { target: 'checking', actions: 'storeFiles' },
        upload: 'uploading',
      },
    },
    uploading: {
      description:
        'AddUsersFromPhotos, busy: the files are uploading (POST /public/singles/bulk), with the progress.',
      meta: { screen: 'AddUsersFromPhotos' },
      tags: ['busy'],
      entry: 'resetProgress',
      invoke: {
        id: 'uploadBatch',
        src: 'uploadBatch',
        input: ({ context }) => context.files as BulkFiles,
      },
      on: {
        'upload.progress': { actions: 'storeProgress' },
        'upload.accepted': { target: 'processing', actions: 'storeJobId' },
        'upload.refused': [
          { guard: 'isServerFault', target: 'failed.serverError' },
          {
            guard: { type: 'hasCode', params: { code: 'too_many_elements' } },
            target: 'invalid.tooManyElements',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'media_corrupt' } },
            target: 'invalid.mediaCorrupt',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'metadata_invalid' } },
            target: 'invalid.metadataInvalid',
            actions: 'storeRefusal',
          },
          {
            guard: { type: 'hasCode', params: { code: 'payload_too_large' } },
            target: 'failed.tooLarge',
          },
          { target: 'failed.unknown' },
        ],
        'upload.failed': 'failed.network',
        cancel: 'ready',
      },
    },
    processing: {
      description:
        'AddUsersFromPhotos, busy: the server registers the rows one by one; how many are done, accepted and rejected so far.',
      meta: { screen: 'AddUsersFromPhotos' },
      tags: ['busy'],
      initial: 'fetching',
      states: {
        fetching: {
          description: 'GET /public/singles/bulk/{jobId}.',
          invoke: {
            id: 'fetchJob',
            src: 'fetchJob',
            input: ({ context }) => ({ jobId: context.jobId as string }),
            onDone: [
              { guard: 'isFinished', target: '#bulkRegistration.results', actions: 'storeJob' },
              { target: 'waiting', actions: 'storeJob' },
            ],
            onError: '#bulkRegistration.failed.progressLost',
          },
        },
        waiting: {
          description: 'A pause before reading the progress again.',
          after: { pollInterval: 'fetching' },
        },
      },
    },
    results: {
      description:
        'AddUsersFromPhotos: the table of every row (row, email, outcome, reason), its totals, and the table as a csv to download.',
      meta: { screen: 'AddUsersFromPhotos' },
      on: { again: { target: 'choosing', actions: 'reset' } },
    },
    failed: {
      description: 'AddUsersFromPhotos: the import could not be sent or followed; try again, or start over.',
      meta: { screen: 'AddUsersFromPhotos' },
      tags: ['error'],
      on: {
        upload: 'uploading',
        again: { target: 'choosing', actions: 'reset' },
      },
      initial: 'network',
      states: {
        network: {
          description: 'Error upload_failed: no answer to the upload (spec §5 "upload failed, re-upload").',
          meta: { errorCode: 'upload_failed' },
        },
        serverError: {
          description:
            'Error server_error: the server failed (5xx) while taking the upload; the files stay chosen and Try again sends them again.',
          meta: { errorCode: 'server_error' },
        },
        tooLarge: {
          description: 'Error payload_too_large: the server refused the upload as too large.',
          meta: { errorCode: 'payload_too_large' },
        },
        unknown: {
          description: 'Error unknown: the server refused the upload for another reason.',
          meta: { errorCode: 'unknown' },
        },
        progressLost: {
          description:
            'Error progress_unavailable: the progress of the import could not be read; the rows already sent stay registered, the server goes on with the rest, and reading the progress again follows the same job.',
          meta: { errorCode: 'progress_unavailable' },
          on: { 'progress.retried': { target: '#bulkRegistration.processing' } },
        },
      },
    },
  },
});
