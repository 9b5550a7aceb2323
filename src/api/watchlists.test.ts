import { describe, expect, it, vi } from 'vitest';
import { exportAuditAccesses, listAuditAccesses } from './audit';
import type { ApiClient } from './client';
import { uploadWatchlist } from './watchlists';

function fakeApi() {
  const post = vi.fn(async () => ({}));
  const get = vi.fn(async () => ({}));
  return { api: { post, get } as unknown as ApiClient, post, get };
}

describe('watchlist upload and audit calls (spec §7)', () => {
  it('sends the multipart upload to /public/watchlists, or to /watchlists under useWatch', async () => {
    const { api, post } = fakeApi();
    const file = new Blob(['dni;fecha_nacimiento\n'], { type: 'text/csv' });
    await uploadWatchlist(api, { file, name: 'list.csv', domain: 'es-demo' }, false);
    await uploadWatchlist(api, { file, name: 'list.csv', domain: 'es-demo' }, true);
    const calls = post.mock.calls as unknown as [string, { body: FormData }][];
    expect(calls.map(([path]) => path)).toEqual(['/public/watchlists', '/watchlists']);
    const body = calls[0]?.[1].body as FormData;
    expect(body.get('domain')).toBe('es-demo');
    expect(body.get('watch_type')).toBe('interdicted');
    expect((body.get('upload') as File).name).toBe('list.csv');
  });

  it('lists a page with only the filters given, and exports the same filter as a streamed blob', async () => {
    const { api, get, post } = fakeApi();
    await listAuditAccesses(api, {
      pageSize: 25,
      pageIndex: 2,
      result: 'denied',
      to: '2026-11-23T10:00:00.000Z',
    });
    const [path, options] = (get.mock.calls as unknown as [string, { searchParams: unknown }][])[0] ?? [];
    expect(path).toBe('/public/audit_accesses');
    expect(options?.searchParams).toEqual({
      pageSize: 25,
      pageIndex: 2,
      result: 'denied',
      to: '2026-11-23T10:00:00.000Z',
    });
    const progress = vi.fn();
    await exportAuditAccesses(api, { result: 'denied' }, progress);
    const [exportPath, exportOptions] =
      (post.mock.calls as unknown as [string, Record<string, unknown>][])[0] ?? [];
    expect(exportPath).toBe('/public/audit_accesses');
    expect(exportOptions).toMatchObject({
      json: { result: 'denied' },
      responseType: 'blob',
      onDownloadProgress: progress,
    });
  });
});
