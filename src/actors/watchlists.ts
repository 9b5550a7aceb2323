// The effects of UploadWatchlist and UploadWatchlistResult (spec §2, §7 Enforcement and watchlists): the preview
// parsed in a worker, the multipart upload sent where the tenant's useWatch says. One upload actor per runtime, so
// that the result screen (another route) shows the same upload the form sent.

import { createActor } from 'xstate';
import type { WatchlistStored } from '../../contract/api/audit';
import type { WatchlistPreview } from '../../contract/domain/watchlist';
import { type WatchlistUploadError, watchlistUploadMachine } from '../../machines/watchlist-upload.machine';
import { isApiError } from '../api/errors';
import { lazyCalls } from '../api/lazy';
import { previewInWorker } from '../media/watchlist-preview';
import type { Runtime } from '../runtime/context';
import { fromPromise } from './promise';

const { fetchWatchlistUpload, uploadWatchlist } = lazyCalls(() => import('../api/watchlists'));

type WatchlistRuntime = Pick<Runtime, 'apiClient' | 'app' | 'inspect'>;

/** The problem of the file itself, as the server names it in `errors` (not_csv: a row too long, a quote). */
function fileProblemOf(errors: unknown): WatchlistUploadError['problem'] {
  const first = Array.isArray(errors) ? (errors[0] as Record<string, unknown> | undefined) : undefined;
  if (first?.field !== 'upload' || typeof first.code !== 'string') return undefined;
  return {
    code: first.code,
    ...(typeof first.line === 'number' ? { line: first.line } : {}),
    ...(typeof first.max === 'number' ? { max: first.max } : {}),
  };
}

function problemOf(error: unknown): WatchlistUploadError {
  if (!isApiError(error)) return { status: 0 };
  const body = error.body as { upload_id?: unknown; errors?: unknown } | undefined;
  const problem = fileProblemOf(body?.errors);
  return {
    status: error.status,
    ...(error.problem?.code ? { code: error.problem.code } : {}),
    ...(error.problem?.detail ? { detail: error.problem.detail } : {}),
    ...(problem ? { problem } : {}),
    // The server kept the refusal under this id: the result route carries it, so a reload still says why.
    ...(typeof body?.upload_id === 'string' ? { uploadId: body.upload_id } : {}),
  };
}

export function watchlistUploadLogic(runtime: WatchlistRuntime) {
  return watchlistUploadMachine.provide({
    actors: {
      parseFile: fromPromise<WatchlistPreview, { file: Blob }>(({ input, signal }) =>
        previewInWorker(input.file, signal),
      ),
      uploadWatchlist: fromPromise<WatchlistStored, { file: Blob; name: string; domain: string }>(
        async ({ input, signal }) => {
          const useWatch = runtime.app.getSnapshot().context.tenant?.settings.useWatch === true;
          try {
            // silent: the result screen says what went wrong, no notice on top of it.
            return await uploadWatchlist(await runtime.apiClient(), input, useWatch, {
              signal,
              silent: true,
            });
          } catch (error) {
            throw problemOf(error);
          }
        },
      ),
      fetchUpload: fromPromise<WatchlistStored, { id: string }>(async ({ input, signal }) => {
        let outcome: Awaited<ReturnType<typeof fetchWatchlistUpload>>;
        try {
          outcome = await fetchWatchlistUpload(await runtime.apiClient(), input.id, { signal, silent: true });
        } catch (error) {
          throw problemOf(error);
        }
        if (outcome.success) return outcome.stored;
        // A refusal kept by the server reads back as the refusal it was.
        throw {
          status: 422,
          code: outcome.code,
          detail: outcome.detail ?? undefined,
          uploadId: outcome.upload_id,
          domain: outcome.legal_domain,
          fileName: outcome.file_name,
        } satisfies WatchlistUploadError;
      }),
    },
  });
}

export type WatchlistUploadActor = ReturnType<typeof createWatchlistUpload>;

function createWatchlistUpload(runtime: WatchlistRuntime) {
  return createActor(watchlistUploadLogic(runtime), { inspect: runtime.inspect }).start();
}

const uploads = new WeakMap<WatchlistRuntime, WatchlistUploadActor>();

/** The upload of this runtime (UploadWatchlist and UploadWatchlistResult share it). */
export function watchlistUploadOf(runtime: WatchlistRuntime): WatchlistUploadActor {
  let actor = uploads.get(runtime);
  if (!actor) {
    actor = createWatchlistUpload(runtime);
    uploads.set(runtime, actor);
  }
  return actor;
}
