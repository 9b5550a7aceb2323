// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { UserCredentials } from '../../../contract/api/credentials';
import type { UserDetail } from '../../../contract/api/users';
import { portalMachines } from '../../app/machines/portal';
import en from '../../i18n/messages/en.json';
import { RuntimeProvider } from '../../runtime/context';
import { registerMachines } from '../../runtime/machines';
import { stubRuntime } from '../../testing/stub-runtime';
import { PortalUserDetail } from './user-detail';

// An evidence image the tenant's retention rule deleted is not "no such image": PortalUserDetail says when and
// by what, from the detail's deleted_evidences (GET /public/users/{id}), and does not ask for the image.

const messages: Record<string, string> = en;

registerMachines(portalMachines);

const user: UserDetail = {
  user_id: 'user-1',
  username: 'ana',
  first_name: 'Ana',
  last_name: 'Etxeberria',
  email: null,
  acs_id: 'ACS-1',
  id_number: '12345678Z',
  active: true,
  onboarding_state: 'completed',
  register_mode: 'auto',
  created_at: '2026-01-10T09:00:00.000Z',
  account_id: null,
  nie: null,
  nationality: 'ESP',
  birth_date: '1990-01-01',
  expiry_date: null,
  document_number: 'AB123456',
  document_type: 'id_card',
  expedition_country: 'ES',
  portrayal_id: null,
  onboarding_id: null,
  host: null,
  onboarding_date: '2026-01-10T09:00:00.000Z',
  assisted_by: null,
  region: null,
  life_proofing_result: 'passing',
  identity_proofing_result: 'passing',
  ocr_integrity: 'passing',
  document_validity: 'passing',
  selfie_authenticity: 'passing',
  evidences: ['obverse'],
  deleted_evidences: [{ kind: 'selfie', deleted_at: '2026-06-15T12:00:00.000Z', deleted_by: 'retention' }],
  refusals: [],
};

const credentials: UserCredentials = {
  user_id: 'user-1',
  activated: true,
  locations: [],
  metadata: { acs_id: 'ACS-1', first_name: 'Ana', last_name: 'Etxeberria' },
  credentials: {},
};

function renderDetail(calls: { evidence?: () => Promise<Blob>; put?: () => Promise<never> } = {}) {
  const get = vi.fn((path: string) =>
    path === '/public/users/user-1/obverse' && calls.evidence
      ? calls.evidence()
      : Promise.resolve(
          path.startsWith('/internal/facilities')
            ? []
            : path.startsWith('/public/users/')
              ? user
              : credentials,
        ),
  );
  const runtime = stubRuntime({ locale: 'en', session: { roles: [] }, api: { get, put: calls.put } });
  const location = memoryLocation({ path: '/user-detail/user-1' });
  render(
    <IntlProvider locale="en" messages={messages}>
      <RuntimeProvider runtime={runtime}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <Route path="/user-detail/:id" component={PortalUserDetail} />
        </Router>
      </RuntimeProvider>
    </IntlProvider>,
  );
  return get;
}

const openTab = async (kind: string) =>
  fireEvent.mouseDown(await screen.findByTestId(`user-tab-${kind}`), { button: 0, ctrlKey: false });

describe('PortalUserDetail evidence deleted by the retention rule', () => {
  it('says the image was deleted, on which date and by what, without asking for it', async () => {
    const get = renderDetail();
    await openTab('selfie');
    expect((await screen.findByTestId('user-evidence-selfie-deleted')).textContent).toBe(
      'Image deleted on 15/06/2026 by the retention rule.',
    );
    expect(get.mock.calls.map(([path]) => path)).not.toContain('/public/users/user-1/selfie');
  });

  it('keeps "no such image" for an image there never was', async () => {
    renderDetail();
    await openTab('reverse');
    expect(await screen.findByTestId('user-evidence-reverse-none')).toBeTruthy();
    expect(screen.queryByTestId('user-evidence-reverse-deleted')).toBeNull();
  });
});

// A failed call leaves words where the person acted and the way to try again (the notice that said why leaves).
describe('PortalUserDetail when a call fails', () => {
  it('says the image could not be loaded and loads it again on Try again', async () => {
    URL.createObjectURL ??= () => 'blob:evidence';
    URL.revokeObjectURL ??= () => undefined;
    const evidence = vi
      .fn<() => Promise<Blob>>()
      .mockRejectedValueOnce(new Error('network'))
      .mockResolvedValue(new Blob(['jpeg'], { type: 'image/jpeg' }));
    renderDetail({ evidence });
    await openTab('obverse');
    const failed = await screen.findByTestId('user-evidence-failed');
    expect(failed.textContent).toContain('The image could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('user-evidence-obverse')).toBeTruthy();
    expect(evidence).toHaveBeenCalledTimes(2);
  });

  it('says a deactivation did not happen, with the button there again', async () => {
    renderDetail({ put: () => Promise.reject(new Error('network')) });
    await openTab('credentials');
    fireEvent.click(await screen.findByTestId('user-deactivate'));
    expect((await screen.findByTestId('user-change-failed')).textContent).toBe(
      'The change could not be saved. Try again.',
    );
    expect((screen.getByTestId('user-deactivate') as HTMLButtonElement).disabled).toBe(false);
  });
});
