import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { AdminAction } from '../../machines/administration.machine';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { administrationLogic } from './users';

function confirmed(action: AdminAction, api: Partial<ApiClient>) {
  const apiClient = async () => api as ApiClient;
  const actor = createActor(administrationLogic({ apiClient }), { input: { tenant: 'demo' } }).start();
  actor.send({ type: 'action.chosen', action });
  actor.send({ type: 'confirmation.typed', value: ' demo ' });
  actor.send({ type: 'action.confirmed' });
  return actor;
}

describe('administrationLogic', () => {
  it.each([
    ['activateAll', '/public/credentials/active'],
    ['deactivateAll', '/public/credentials/inactive'],
    ['deleteAllData', '/public/users/deleteAllData'],
  ] as const)('%s sends the typed tenant name to PUT %s', async (action, path) => {
    const put = vi.fn(async () =>
      action === 'deleteAllData'
        ? { users: 3, images: 5 }
        : { activated: action === 'activateAll', users: 3 },
    );
    const actor = confirmed(action, { put } as Partial<ApiClient>);
    await waitFor(actor, (s) => s.matches('done'));
    expect(put).toHaveBeenCalledWith(path, expect.objectContaining({ json: { confirm: 'demo' } }));
    expect(actor.getSnapshot().context.result).toEqual({
      users: 3,
      images: action === 'deleteAllData' ? 5 : 0,
    });
  });

  it('sends the typed tenant name to DELETE /public/users', async () => {
    const del = vi.fn(async () => ({ users: 2, images: 0 }));
    const actor = confirmed('deleteUsers', { delete: del } as Partial<ApiClient>);
    await waitFor(actor, (s) => s.matches('done'));
    expect(del).toHaveBeenCalledWith('/public/users', expect.objectContaining({ json: { confirm: 'demo' } }));
  });

  it("shows the server's confirmation_mismatch as the mismatch, and any other failure as unknown", async () => {
    const refused = (code?: string) =>
      vi.fn(async () => {
        throw new ApiError({
          kind: 'http',
          method: 'PUT',
          path: '/public/credentials/inactive',
          status: 422,
          problem: { status: 422, title: 'Unprocessable Content', detail: '', ...(code ? { code } : {}) },
        });
      });
    const mismatch = confirmed('deactivateAll', {
      put: refused('confirmation_mismatch'),
    } as Partial<ApiClient>);
    await waitFor(mismatch, (s) => s.matches('failed'));
    expect(mismatch.getSnapshot().matches({ failed: 'mismatch' })).toBe(true);
    const other = confirmed('activateAll', { put: refused('validation') } as Partial<ApiClient>);
    await waitFor(other, (s) => s.matches('failed'));
    expect(other.getSnapshot().matches({ failed: 'unknown' })).toBe(true);
  });
});
