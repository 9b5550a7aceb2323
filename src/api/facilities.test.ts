// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client.ts';
import { ApiError } from './errors.ts';
import { listFacilities } from './facilities.ts';

function clientAnswering(body: unknown) {
  const requests: Request[] = [];
  const notify = vi.fn();
  const api = createApiClient({
    baseUrl: '/api',
    tenantId: 'acme',
    getToken: () => 'token',
    renewOnce: async () => false,
    onUnauthorized: vi.fn(),
    notify,
    navigate: vi.fn(),
    loading: { start: vi.fn(), end: vi.fn() },
    retryDelay: () => 0,
    fetch: (async (input: RequestInfo | URL) => {
      requests.push(input as Request);
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch,
  });
  return { api, requests, notify };
}

describe('listFacilities', () => {
  it('GETs /internal/facilities and returns the validated list', async () => {
    const facilities = [
      { facility_id: 'f1', alias: 'Bilbao HQ', timezone: 'Europe/Madrid' },
      { facility_id: 'f2', alias: 'Lab', timezone: 'Atlantic/Canary' },
    ];
    const { api, requests } = clientAnswering(facilities);
    await expect(listFacilities(api)).resolves.toEqual(facilities);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.method).toBe('GET');
    expect(new URL(requests[0]?.url ?? '').pathname).toBe('/api/internal/facilities');
    expect(requests[0]?.headers.get('tenant-id')).toBe('acme');
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer token');
  });

  it.each([
    [{ facility_id: 'f1', alias: 'x', timezone: 'UTC' }],
    [[{ facility_id: 1, alias: 'x', timezone: 'UTC' }]],
    [[{ facility_id: 'f1', alias: 'x' }]],
  ])('rejects a body outside the contract: %j', async (body) => {
    const { api, notify } = clientAnswering(body);
    const error = await listFacilities(api).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('contract');
    expect(notify).toHaveBeenCalledWith({ level: 'error', messageId: 'common.http.contract' });
  });
});
