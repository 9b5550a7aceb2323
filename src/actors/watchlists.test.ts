import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { WatchlistPreview } from '../../contract/domain/watchlist';
import { ApiError } from '../api/errors';
import { watchlistUploadLogic } from './watchlists';

// What the upload keeps of the server's refusal: its code and id, and what is wrong with the file itself (a row
// too long and its line), so that the result screen can say it in the reader's language.

const preview: WatchlistPreview = {
  ok: true,
  header: ['dni', 'fecha_nacimiento'],
  rows: [['12345678Z', '01/01/1980']],
  valid: 1,
  invalid: 0,
  errors: [],
};

function refusedWith(body: Record<string, unknown>) {
  const runtime = {
    app: { getSnapshot: () => ({ context: { tenant: { settings: { useWatch: false } } } }) },
    inspect: undefined,
    apiClient: async () => ({
      post: async () => {
        throw new ApiError({
          kind: 'http',
          method: 'POST',
          path: '/public/watchlists',
          status: 422,
          problem: {
            status: 422,
            title: 'Unprocessable Entity',
            detail: String(body.detail),
            code: 'not_csv',
          },
          body,
        });
      },
    }),
  } as unknown as Parameters<typeof watchlistUploadLogic>[0];
  return createActor(
    watchlistUploadLogic(runtime).provide({ actors: { parseFile: fromPromise(async () => preview) } }),
  ).start();
}

describe('the watchlist upload refused by the server', () => {
  it('keeps the problem of the file and its line', async () => {
    const actor = refusedWith({
      code: 'not_csv',
      detail: 'Line 3 is longer than 4096 characters: the file is not a valid watchlist csv.',
      upload_id: '00000000-0000-4000-8000-000000000001',
      errors: [{ field: 'upload', code: 'line_too_long', line: 3, max: 4096 }],
    });
    actor.send({ type: 'file.chosen', file: new File(['dni;fecha\n'], 'list.csv', { type: 'text/csv' }) });
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    actor.send({ type: 'upload.confirmed', domain: 'es-an' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().matches({ failed: 'not_csv' })).toBe(true);
    expect(actor.getSnapshot().context.refusal).toMatchObject({
      status: 422,
      code: 'not_csv',
      uploadId: '00000000-0000-4000-8000-000000000001',
      problem: { code: 'line_too_long', line: 3, max: 4096 },
    });
  });

  it('keeps no problem when the errors are about rows, not the file', async () => {
    const actor = refusedWith({
      code: 'invalid_rows',
      detail: '1 rows are not valid; nothing was stored.',
      errors: [{ field: 'row 2', code: 'birth_date_invalid', row: 2 }],
    });
    actor.send({ type: 'file.chosen', file: new File(['dni;fecha\n'], 'list.csv', { type: 'text/csv' }) });
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    actor.send({ type: 'upload.confirmed', domain: 'es-an' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.refusal?.problem).toBeUndefined();
  });
});
