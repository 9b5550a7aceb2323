import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { WatchlistPreview } from '../../contract/domain/watchlist';
import {
  type ChosenFile,
  type WatchlistUploadEvent,
  watchlistUploadMachine,
} from '../../machines/watchlist-upload.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

// A stand-in for a File: only its name, size and type are read before parsing (a real 12 MB Blob is not needed).
const file = (name: string, size: number, type = 'text/csv') =>
  ({ name, size, type }) as unknown as Blob & ChosenFile;

const readable: WatchlistPreview = {
  ok: true,
  header: ['dni', 'fecha_nacimiento'],
  rows: [['99999990S', '01/01/1980']],
  valid: 1,
  invalid: 0,
  errors: [],
};

const spec: ModelSpec<typeof watchlistUploadMachine> = {
  machine: watchlistUploadMachine,
  events: () => [
    { type: 'file.chosen', file: file('list.csv', 120) } satisfies WatchlistUploadEvent,
    { type: 'file.chosen', file: file('big.csv', 12 * 1024 * 1024) } satisfies WatchlistUploadEvent,
    { type: 'file.chosen', file: file('photo.png', 4000, 'image/png') } satisfies WatchlistUploadEvent,
    { type: 'upload.confirmed', domain: 'es-demo' } satisfies WatchlistUploadEvent,
    { type: 'upload.again' } satisfies WatchlistUploadEvent,
    { type: 'result.opened', id: 'u-9' } satisfies WatchlistUploadEvent,
    { type: 'result.retried' } satisfies WatchlistUploadEvent,
    { type: 'xstate.done.actor.parseFile', output: readable },
    {
      type: 'xstate.done.actor.parseFile',
      output: { ...readable, valid: 0, invalid: 1, errors: [{ row: 2, problems: ['birth_date_invalid'] }] },
    },
    { type: 'xstate.done.actor.parseFile', output: { ok: false, problem: 'missing_columns' } },
    { type: 'xstate.error.actor.parseFile', error: new Error('worker failed') },
    {
      type: 'xstate.done.actor.uploadWatchlist',
      output: {
        watchlist_id: 'w-1',
        legal_domain: 'es-demo',
        row_count: 1,
        created_at: '2026-01-01T00:00:00Z',
      },
    },
    ...(['file_too_large', 'not_csv', 'invalid_rows', 'unknown_domain'] as const).map((code) => ({
      type: 'xstate.error.actor.uploadWatchlist',
      error: { status: code === 'file_too_large' ? 413 : 422, code },
    })),
    { type: 'xstate.error.actor.uploadWatchlist', error: { status: 0 } },
    {
      type: 'xstate.done.actor.fetchUpload',
      output: {
        watchlist_id: 'u-9',
        legal_domain: 'es-demo',
        row_count: 3,
        created_at: '2026-01-01T00:00:00Z',
        file_name: 'list.csv',
        current: false,
      },
    },
    ...(['upload_not_found', 'file_too_large', 'not_csv', 'invalid_rows', 'unknown_domain'] as const).map(
      (code) => ({
        type: 'xstate.error.actor.fetchUpload',
        error: { status: code === 'upload_not_found' ? 404 : 422, code, uploadId: 'u-9' },
      }),
    ),
    { type: 'xstate.error.actor.fetchUpload', error: { status: 0 } },
  ],
  provide: (control) =>
    watchlistUploadMachine.provide({
      actors: {
        parseFile: control.actor('parseFile'),
        uploadWatchlist: control.actor('uploadWatchlist'),
        fetchUpload: control.actor('fetchUpload'),
      },
    }),
  errorCodes: {
    expected: [
      'file_too_large',
      'not_csv',
      'invalid_rows',
      'unknown_domain',
      'upload_failed',
      'upload_not_found',
      'result_unavailable',
    ],
    read: codesInMeta('errorCode'),
  },
};

describe('watchlist upload machine (generated paths)', () => {
  it('covers every transition and every error on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });

  it('reads the upload the result route names, once: a stored version, or a kept refusal as it was', async () => {
    const asked: string[] = [];
    let answer: 'stored' | 'refused' = 'stored';
    const actor = createActor(
      watchlistUploadMachine.provide({
        actors: {
          fetchUpload: fromPromise(async ({ input }: { input: { id: string } }) => {
            asked.push(input.id);
            if (answer === 'refused') {
              throw {
                status: 422,
                code: 'invalid_rows',
                uploadId: input.id,
                domain: 'es-ct',
                fileName: 'bad.csv',
              };
            }
            return {
              watchlist_id: input.id,
              legal_domain: 'es-demo',
              row_count: 2,
              created_at: '2026-01-01T00:00:00Z',
            };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'result.opened', id: 'w-1' });
    expect(actor.getSnapshot().matches('opening')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().matches('stored')).toBe(true);
    expect(actor.getSnapshot().context.stored?.row_count).toBe(2);
    // The route re-announcing the id it already shows changes nothing.
    actor.send({ type: 'result.opened', id: 'w-1' });
    expect(asked).toEqual(['w-1']);
    answer = 'refused';
    actor.send({ type: 'result.opened', id: 'r-2' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ failed: 'invalid_rows' })).toBe(true);
    expect(snapshot.context.refusal).toMatchObject({ uploadId: 'r-2', domain: 'es-ct', fileName: 'bad.csv' });
    expect(asked).toEqual(['w-1', 'r-2']);
    actor.stop();
  });

  it('an upload with no answer keeps the file, its preview and the domain, and Upload sends them again', async () => {
    const sent: { name: string; domain: string }[] = [];
    const actor = createActor(
      watchlistUploadMachine.provide({
        actors: {
          parseFile: fromPromise<WatchlistPreview, { file: Blob }>(async () => readable),
          uploadWatchlist: fromPromise(
            async ({ input }: { input: { file: Blob; name: string; domain: string } }) => {
              sent.push({ name: input.name, domain: input.domain });
              if (sent.length === 1) throw { status: 0 };
              return {
                watchlist_id: 'w-2',
                legal_domain: input.domain,
                row_count: 1,
                created_at: '2026-01-01T00:00:00Z',
              };
            },
          ),
        },
      }),
    ).start();
    actor.send({ type: 'file.chosen', file: file('list.csv', 120) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'upload.confirmed', domain: 'es-ri' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const failed = actor.getSnapshot();
    expect(failed.matches({ preview: 'sendFailed' })).toBe(true);
    expect(failed.context.file?.name).toBe('list.csv');
    expect(failed.context.preview).toEqual(readable);
    actor.send({ type: 'upload.confirmed', domain: 'es-ri' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().matches('stored')).toBe(true);
    expect(sent).toEqual([
      { name: 'list.csv', domain: 'es-ri' },
      { name: 'list.csv', domain: 'es-ri' },
    ]);
    actor.stop();
  });

  it('a result that cannot be read says neither stored nor refused, and Read again reads the same upload', async () => {
    const asked: string[] = [];
    const actor = createActor(
      watchlistUploadMachine.provide({
        actors: {
          fetchUpload: fromPromise(async ({ input }: { input: { id: string } }) => {
            asked.push(input.id);
            if (asked.length === 1) throw { status: 500, code: 'internal_error' };
            return {
              watchlist_id: input.id,
              legal_domain: 'es-demo',
              row_count: 2,
              created_at: '2026-01-01T00:00:00Z',
            };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'result.opened', id: 'w-3' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().matches('unread')).toBe(true);
    expect(actor.getSnapshot().matches('failed')).toBe(false);
    actor.send({ type: 'result.retried' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().matches('stored')).toBe(true);
    expect(asked).toEqual(['w-3', 'w-3']);
    actor.stop();
  });

  it('refuses a 12 MB file and a png before anything is read', async () => {
    const calls: string[] = [];
    const actor = createActor(
      watchlistUploadMachine.provide({
        actors: {
          parseFile: fromPromise<WatchlistPreview, { file: Blob }>(async () => {
            calls.push('parse');
            return readable;
          }),
        },
      }),
    ).start();
    actor.send({ type: 'file.chosen', file: file('big.csv', 12 * 1024 * 1024) });
    expect(actor.getSnapshot().matches({ refused: 'file_too_large' })).toBe(true);
    actor.send({ type: 'file.chosen', file: file('photo.png', 4000, 'image/png') });
    expect(actor.getSnapshot().matches({ refused: 'not_csv' })).toBe(true);
    expect(calls).toEqual([]);
    actor.stop();
  });
});
