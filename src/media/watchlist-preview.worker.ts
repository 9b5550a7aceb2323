// Off the main thread: a watchlist csv of up to 10 MB read and validated for UploadWatchlist's preview.
import { previewWatchlist, type WatchlistPreview } from '../../contract/domain/watchlist';

export type PreviewRequest = { id: number; file: Blob };
export type PreviewResponse = { id: number; preview: WatchlistPreview };

self.onmessage = async (event: MessageEvent<PreviewRequest>) => {
  const { id, file } = event.data;
  const preview = previewWatchlist(await file.arrayBuffer(), 5);
  self.postMessage({ id, preview } satisfies PreviewResponse);
};
