import type { WatchlistPreview } from '../../contract/domain/watchlist';
import type { PreviewRequest, PreviewResponse } from './watchlist-preview.worker';

/** The preview of a watchlist file (first rows, valid and invalid counts), parsed in a worker of its own. */
export function previewInWorker(file: Blob, signal?: AbortSignal): Promise<WatchlistPreview> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./watchlist-preview.worker.ts', import.meta.url), { type: 'module' });
    const end = () => worker.terminate();
    signal?.addEventListener('abort', () => {
      end();
      reject(new Error('aborted'));
    });
    worker.onmessage = (event: MessageEvent<PreviewResponse>) => {
      end();
      resolve(event.data.preview);
    };
    worker.onerror = () => {
      end();
      reject(new Error('watchlist preview worker failed'));
    };
    worker.postMessage({ id: 0, file } satisfies PreviewRequest);
  });
}
