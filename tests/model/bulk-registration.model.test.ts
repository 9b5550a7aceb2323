import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, fromCallback, fromPromise } from 'xstate';
import type { BulkJob } from '../../contract/api/bulk';
import {
  type BulkCheck,
  type BulkRegistrationEvent,
  bulkRegistrationMachine,
} from '../../machines/bulk-registration.machine';
import { codesInMeta, coverMachine } from './harness';

// Generated paths over AddUsersFromPhotos: every outcome of the browser's check (corrupt zip, invalid metadata, too
// many elements, row problems, a file that cannot be read, all good), every answer to the upload (accepted, refused
// by code, too large, no answer, cancelled), the polling of the job (running, finished, lost) and starting over.

const metadata = new File(['email,first_name,last_name,acs_id,image\n'], 'people.csv');
const media = new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04])], 'photos.zip');

const check = (overrides: Partial<BulkCheck>): BulkCheck => ({
  rows: 2,
  problems: [],
  fatal: null,
  ...overrides,
});
const job = (status: BulkJob['status'], done: number): BulkJob => ({
  job_id: 'job-1',
  status,
  total: 2,
  done,
  accepted: done,
  rejected: 0,
  rows: [],
});

function events(): (EventObject & Record<string, unknown>)[] {
  return [
    { type: 'files.chosen', metadata, media } satisfies BulkRegistrationEvent,
    { type: 'upload' } satisfies BulkRegistrationEvent,
    { type: 'upload.progress', fraction: 0.5 } satisfies BulkRegistrationEvent,
    { type: 'upload.accepted', jobId: 'job-1', total: 2 } satisfies BulkRegistrationEvent,
    { type: 'upload.refused', refusal: { status: 422, code: 'too_many_elements', count: 1001 } },
    { type: 'upload.refused', refusal: { status: 422, code: 'media_corrupt' } },
    { type: 'upload.refused', refusal: { status: 422, code: 'metadata_invalid' } },
    { type: 'upload.refused', refusal: { status: 413, code: 'payload_too_large' } },
    { type: 'upload.refused', refusal: { status: 403, code: 'forbidden' } },
    { type: 'upload.refused', refusal: { status: 500, code: 'internal_error' } },
    { type: 'upload.failed' } satisfies BulkRegistrationEvent,
    { type: 'cancel' } satisfies BulkRegistrationEvent,
    { type: 'again' } satisfies BulkRegistrationEvent,
    { type: 'progress.retried' } satisfies BulkRegistrationEvent,
    { type: 'xstate.done.actor.checkFiles', output: check({ fatal: { code: 'media_corrupt' } }) },
    {
      type: 'xstate.done.actor.checkFiles',
      output: check({ fatal: { code: 'metadata_columns', missing: ['acs_id'] } }),
    },
    {
      type: 'xstate.done.actor.checkFiles',
      output: check({ fatal: { code: 'too_many_elements', count: 1001 } }),
    },
    {
      type: 'xstate.done.actor.checkFiles',
      output: check({ problems: [{ row: 2, field: 'email', code: 'duplicate_row' }] }),
    },
    { type: 'xstate.done.actor.checkFiles', output: check({}) },
    { type: 'xstate.error.actor.checkFiles', error: new Error('unreadable') },
    { type: 'xstate.done.actor.fetchJob', output: job('running', 1) },
    { type: 'xstate.done.actor.fetchJob', output: job('done', 2) },
    { type: 'xstate.error.actor.fetchJob', error: { status: 0 } },
    { type: 'xstate.after.pollInterval.bulkRegistration.processing.waiting' },
  ];
}

describe('bulk registration machine (generated paths)', () => {
  it('covers every transition and every error code on a real actor', async () => {
    const report = await coverMachine([
      {
        machine: bulkRegistrationMachine,
        input: { acsIdSchema: 'string64' },
        events: events as never,
        provide: (control) =>
          bulkRegistrationMachine.provide({
            actors: {
              checkFiles: control.actor('checkFiles'),
              // The upload reports by events (upload.progress, upload.accepted…), which the paths send.
              uploadBatch: fromCallback(() => () => {}),
              fetchJob: control.actor('fetchJob'),
            },
          }),
        errorCodes: {
          expected: [
            'media_corrupt',
            'metadata_invalid',
            'too_many_elements',
            'invalid_rows',
            'file_unreadable',
            'upload_failed',
            'server_error',
            'payload_too_large',
            'unknown',
            'progress_unavailable',
          ],
          read: codesInMeta('errorCode'),
        },
      },
    ]);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });

  it('a lost reading of the progress is read again for the same job, and the import carries on to its results', async () => {
    const read: string[] = [];
    const actor = createActor(
      bulkRegistrationMachine.provide({
        actors: {
          checkFiles: fromPromise(async () => check({})),
          uploadBatch: fromCallback(() => () => {}),
          fetchJob: fromPromise(async ({ input }: { input: { jobId: string } }) => {
            read.push(input.jobId);
            if (read.length === 1) throw { status: 0 };
            return job('done', 2);
          }),
        },
      }),
      { input: { acsIdSchema: 'string64' } },
    ).start();
    actor.send({ type: 'files.chosen', metadata, media });
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'upload' });
    actor.send({ type: 'upload.accepted', jobId: 'job-1', total: 2 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().matches({ failed: 'progressLost' })).toBe(true);
    actor.send({ type: 'progress.retried' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().matches('results')).toBe(true);
    expect(read).toEqual(['job-1', 'job-1']);
    actor.stop();
  });
});
