import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  type ChosenFile,
  type WatchlistUploadEvent,
  watchlistUploadMachine,
} from '../../machines/watchlist-upload.machine';
import type { WatchlistPreview } from '../../src/domain/watchlist';
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
  ],
  provide: (control) =>
    watchlistUploadMachine.provide({
      actors: {
        parseFile: control.actor('parseFile'),
        uploadWatchlist: control.actor('uploadWatchlist'),
      },
    }),
  errorCodes: {
    expected: ['file_too_large', 'not_csv', 'invalid_rows', 'unknown_domain', 'upload_failed'],
    read: codesInMeta('errorCode'),
  },
};

describe('watchlist upload machine (generated paths)', () => {
  it('covers every transition and every error on a real actor', async () => {
    const report = await coverMachine(spec);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
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
