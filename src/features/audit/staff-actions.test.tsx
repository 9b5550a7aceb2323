// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import type { StaffAction, StaffActionsPage } from '../../../contract/api/staff-actions';
import { portalMachines } from '../../app/machines/portal';
import en from '../../i18n/messages/en.json';
import { RuntimeProvider } from '../../runtime/context';
import { registerMachines } from '../../runtime/machines';
import { stubRuntime } from '../../testing/stub-runtime';
import { StaffActions } from './staff-actions';

// AuditAccesses' Staff actions tab: the rows in words (never an action's code), the person's filter sent to the API,
// the empty list, and a failed load that a retry recovers.

registerMachines(portalMachines);

const row = (over: Partial<StaffAction>): StaffAction => ({
  id: 'a1',
  at: '2026-11-02T10:00:00.000Z',
  staff_id: 'staff-1',
  staff_name: 'usermanager',
  staff_roles: ['usermanager'],
  action: 'evidence.read',
  subject_id: 'user-1',
  subject_name: 'Ana Etxeberria',
  request_id: 'req-1',
  ...over,
});

const page = (items: StaffAction[]): StaffActionsPage => ({
  items,
  total: items.length,
  totalIsLowerBound: false,
  pageIndex: 0,
  pageSize: 25,
});

function renderTab(
  get: (path: string, options: { searchParams: Record<string, string> }) => Promise<unknown>,
) {
  const runtime = stubRuntime({ locale: 'en', tenant: { settings: { timeZone: 'UTC' } }, api: { get } });
  render(
    <IntlProvider locale="en" messages={en as Record<string, string>}>
      <RuntimeProvider runtime={runtime}>
        <StaffActions />
      </RuntimeProvider>
    </IntlProvider>,
  );
}

describe('the Staff actions tab', () => {
  it('shows each action in words with who did it, and filters by the person typed', async () => {
    const get = vi.fn(async (_path: string, _options: { searchParams: Record<string, string> }) =>
      page([
        row({ id: 'a2', action: 'user.deactivate' }),
        row({
          id: 'a3',
          action: 'data.delete_all',
          subject_id: null,
          subject_name: null,
          staff_roles: ['admin'],
        }),
        row({ id: 'a4', subject_name: null, subject_id: 'gone-1', staff_roles: [] }),
        row({ id: 'a5', action: 'visit.check_in', subject_name: null, subject_id: null }),
      ]),
    );
    renderTab(get);
    const rows = await screen.findAllByTestId('staff-action-row');
    expect(rows.map((r) => r.querySelector('p')?.textContent)).toEqual([
      'Deactivated the person · Ana Etxeberria',
      'Deleted all data · Many people at once',
      'Viewed an evidence image · Person no longer registered (gone-1)',
      'Checked a visit in · A person with no account',
    ]);
    expect(rows[0]?.textContent).toContain('By usermanager (user manager)');
    expect(rows[2]?.textContent).toContain('By usermanager ·');
    fireEvent.change(screen.getByTestId('staff-actions-person'), { target: { value: ' 12345678Z ' } });
    fireEvent.click(screen.getByTestId('staff-actions-apply'));
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
    expect(get.mock.calls[1]?.[0]).toBe('/public/staff_actions');
    expect(get.mock.calls[1]?.[1].searchParams).toMatchObject({ person: '12345678Z', pageIndex: 0 });
  });

  it('says when nothing matches, and a failed load is retried from the alert', async () => {
    let fail = true;
    const get = vi.fn(async () => {
      if (fail) throw new Error('offline');
      return page([]);
    });
    renderTab(get);
    expect(await screen.findByText('The staff actions could not be loaded.')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect((await screen.findByTestId('staff-actions-empty')).textContent).toBe(
      'No staff action matches these filters.',
    );
  });
});
