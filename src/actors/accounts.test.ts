import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { ApiClient } from '../api/client';
import { accountsListLogic } from './accounts';

const account = {
  id: 'a-1',
  username: 'ana',
  firstName: 'Ana',
  lastName: null,
  email: null,
  createdTimestamp: 0,
  onboarding_status: 'completed',
};

describe('accountsListLogic', () => {
  it('asks GET /public/accounts for the page and filter of the list machine', async () => {
    const get = vi.fn(async () => ({ items: [account], totalItems: 11 }));
    const apiClient = async () => ({ get }) as unknown as ApiClient;
    const list = createActor(accountsListLogic({ apiClient }), { input: { pageSize: 10 } }).start();
    await waitFor(list, (s) => s.matches('ready'));
    list.send({ type: 'filter.change', filter: ' ana ' });
    await waitFor(list, (s) => s.matches('ready'));
    list.send({ type: 'page.next' });
    await waitFor(list, (s) => s.matches('ready'));
    expect(get).toHaveBeenLastCalledWith(
      '/public/accounts',
      expect.objectContaining({ searchParams: { pageSize: 10, pageIndex: 1, filter: 'ana' } }),
    );
    expect(list.getSnapshot().context).toMatchObject({ items: [account], totalItems: 11, pageIndex: 1 });
  });
});
