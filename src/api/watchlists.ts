import type { WatchlistStored, WatchlistUploadOutcome } from '../../contract/api/audit.ts';
import { watchlistStored, watchlistUploadOutcome } from './answers.ts';
import type { ApiClient, RequestOptions } from './client.ts';

type CallOptions = Pick<RequestOptions, 'signal' | 'silent' | 'handlers' | 'onError'>;

// A prohibited list for one legal domain (spec §3 Watchlist upload, §7): multipart domain, watch_type=interdicted
// and upload (the csv); POST /watchlists when the tenant's useWatch, else POST /public/watchlists.
export function uploadWatchlist(
  api: ApiClient,
  upload: { file: Blob; name: string; domain: string },
  useWatch: boolean,
  options: CallOptions = {},
): Promise<WatchlistStored> {
  const body = new FormData();
  body.set('domain', upload.domain);
  body.set('watch_type', 'interdicted');
  body.set('upload', new File([upload.file], upload.name, { type: 'text/csv' }));
  return api.post(useWatch ? '/watchlists' : '/public/watchlists', {
    ...options,
    body,
    schema: watchlistStored,
  });
}

/** One upload's outcome by id (the result route after a reload, the audit's enforcement source link). */
export function fetchWatchlistUpload(
  api: ApiClient,
  id: string,
  options: CallOptions = {},
): Promise<WatchlistUploadOutcome> {
  return api.get(`/public/watchlists/uploads/${encodeURIComponent(id)}`, {
    ...options,
    schema: watchlistUploadOutcome,
  });
}
