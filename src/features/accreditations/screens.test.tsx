// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Credential, UserCredentials } from '../../../contract/api/credentials';
import { accreditationMachines } from '../../app/machines/accreditations';
import type { Session } from '../../auth/access';
import catalogue from '../../i18n/messages/es.json';
import { type Runtime, RuntimeProvider } from '../../runtime/context';
import { registerMachines } from '../../runtime/machines';
import { apiOverFetch, type StubRuntimeOptions, stubRuntime } from '../../testing/stub-runtime';
import { AccreditationDetail } from './accreditation-detail';
import { MyAccreditations } from './my-accreditations';
import { UserHome } from './user-home';

// The area's machines with their real actors over the fake API client, as src/app/routes.ts registers them.
registerMachines(accreditationMachines);

const messages: Record<string, string> = catalogue;
const NOW = Date.now();
const DAY = 86_400_000;

const SESSION: Session = {
  accessToken: 'token',
  issuedAt: 0,
  expiresAt: 4_000_000_000,
  roles: ['post_onboardings_auto', 'get_users_me', 'can_view_accreditations', 'delete_accounts_me'],
  email: 'unai@example.com',
  userName: 'user',
  profile: null,
  userId: 'account-1',
  enrolled: true,
  acsId: 'ACS-1',
  userType: 'user',
  locale: 'es',
  claims: null,
  firstName: 'Unai',
  name: 'Unai Usuario',
};

const qr: Credential = {
  sid: 'sid-qr',
  user_id: 'user-1',
  credential_type: 'qr',
  state: 'active',
  starts_at: new Date(NOW - DAY).toISOString(),
  ends_at: new Date(NOW + 14 * DAY).toISOString(),
  created_at: new Date(NOW - DAY).toISOString(),
  valid: true,
};

function listOf(...credentials: Credential[]): UserCredentials {
  return {
    user_id: 'user-1',
    activated: true,
    locations: [],
    metadata: { acs_id: 'ACS-1', first_name: 'Unai', last_name: 'Usuario' },
    credentials: Object.fromEntries(
      credentials.map(({ sid, credential_type, state, starts_at, ends_at, created_at, valid }) => [
        sid,
        { credential_type, state, starts_at, ends_at, created_at, valid },
      ]),
    ),
  };
}

/**
 * A runtime whose session, tenant and API the test decides (screens never see src/api); `session` null: the session
 * has not named the account yet.
 */
function runtimeWith(
  api: {
    get: (path: string, options?: { signal?: AbortSignal }) => Promise<unknown>;
    put?: (path: string, o: unknown) => Promise<unknown>;
  },
  { session = SESSION, client }: { session?: Session | null; client?: StubRuntimeOptions['client'] } = {},
) {
  return stubRuntime({
    locale: 'es',
    tenant: {
      tenant: 'gambling',
      settings: { domain: 'gambling', knowMoreUrl: 'https://example.org/info', credentialTypesWhitelist: [] },
    },
    session,
    api: { get: api.get, put: api.put },
    client,
  });
}

function renderAt(path: string, runtime: Runtime, { strict = false } = {}) {
  const location = memoryLocation({ path });
  const tree = (
    <IntlProvider locale="es" messages={messages}>
      <RuntimeProvider runtime={runtime}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <Route path="/home" component={UserHome} />
          <Route path="/my-accreditations" component={MyAccreditations} />
          <Route path="/accreditation-detail/:accreditationId" component={AccreditationDetail} />
        </Router>
      </RuntimeProvider>
    </IntlProvider>
  );
  return render(strict ? <StrictMode>{tree}</StrictMode> : tree);
}

const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
const release = vi.fn(() => Promise.resolve());
const request = vi.fn(() => Promise.resolve({ release }));

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:qr');
  URL.revokeObjectURL = vi.fn();
  Object.defineProperty(navigator, 'wakeLock', { value: { request }, configurable: true });
});
afterEach(() => {
  vi.clearAllMocks();
  Reflect.deleteProperty(navigator, 'wakeLock');
});

/** GET answers: the list, one credential as JSON, its PNG. */
const answering = (list: UserCredentials, one: Credential) => (path: string) =>
  Promise.resolve(path.endsWith('?format=png') ? png : path.includes('/sids/') ? one : list);

describe('UserHome', () => {
  // src/app/main.tsx renders inside StrictMode: in development React mounts, unmounts and mounts again, which
  // stops the accreditation actor once and aborts its first call, as the real API client does with its signal.
  it('shows the QR under StrictMode, where the first call is aborted', async () => {
    const answer = answering(listOf(qr), qr);
    const get = (path: string, options?: { signal?: AbortSignal }) =>
      new Promise((resolve, reject) => {
        const abort = () => reject(new DOMException('Aborted', 'AbortError'));
        if (options?.signal?.aborted) abort();
        options?.signal?.addEventListener('abort', abort);
        setTimeout(() => resolve(answer(path)));
      });
    renderAt('/home', runtimeWith({ get }), { strict: true });
    expect(await screen.findByRole('img', { name: /Unai Usuario/ })).toHaveAttribute('src', 'blob:qr');
  });

  it('shows the name, the QR with its window, the saloon, the entries the rights open, and keeps the screen awake', async () => {
    const view = renderAt('/home?saloon=Sala%20Bilbao', runtimeWith({ get: answering(listOf(qr), qr) }));
    expect(await screen.findByRole('img', { name: /Unai Usuario/ })).toHaveAttribute('src', 'blob:qr');
    expect(screen.getByTestId('home-name')).toHaveTextContent('Hola, Unai Usuario');
    expect(screen.getByTestId('home-saloon')).toHaveTextContent('Sala: Sala Bilbao');
    expect(screen.getByTestId('accreditation-window')).toHaveTextContent(
      /Válida del \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} al/,
    );
    expect(screen.getByTestId('home-accreditations')).toHaveAttribute('href', '/my-accreditations');
    expect(screen.getByTestId('home-profile')).toBeInTheDocument();
    expect(screen.queryByTestId('home-visits')).toBeNull();
    expect(screen.getByTestId('know-more')).toHaveAttribute('href', 'https://example.org/info');
    await waitFor(() => expect(request).toHaveBeenCalledWith('screen'));
    view.unmount();
    await waitFor(() => expect(release).toHaveBeenCalled());
  });

  it('says a revoked QR is revoked, shows no code and does not keep the screen awake', async () => {
    const revoked = { ...qr, state: 'revoked' as const, valid: false };
    renderAt('/home', runtimeWith({ get: answering(listOf(revoked), revoked) }));
    expect(await screen.findByTestId('home-qr-unusable')).toHaveTextContent('revocada');
    expect(screen.queryByRole('img')).toBeNull();
    expect(request).not.toHaveBeenCalled();
  });
});

describe('before the session names the account', () => {
  it.each(['/home', '/my-accreditations', '/accreditation-detail/sid-1'])(
    '%s says it is loading in words, never a bare ellipsis',
    (path) => {
      renderAt(path, runtimeWith({ get: () => new Promise<never>(() => {}) }, { session: null }));
      expect(screen.getByRole('status')).toHaveTextContent('Cargando…');
    },
  );
});

/** A runtime over the real API client, whose fetch the test answers: what the client says is what a person reads. */
function runtimeOverFetch(answer: (url: string) => Response) {
  const { client, notices } = apiOverFetch(answer);
  return { runtime: runtimeWith({ get: () => new Promise<never>(() => {}) }, { client }), notices };
}

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('AccreditationDetail, when its QR cannot be loaded', () => {
  it('says why beside "could not be loaded", in the API client\'s words, with Retry', async () => {
    const { runtime, notices } = runtimeOverFetch((url) => {
      if (url.includes('format=png')) throw new TypeError('Failed to fetch');
      return jsonResponse(200, listOf(qr));
    });
    renderAt('/accreditation-detail/sid-qr', runtime);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      messages['accreditation.error.credential_unavailable'] as string,
    );
    expect(notices).toEqual([{ level: 'error', messageId: 'common.http.network' }]);
    expect(screen.getByRole('button', { name: messages['accreditation.retry'] })).toBeEnabled();
  });

  it("says a QR that is not there in the screen's words alone, with no notice beside", async () => {
    const { runtime, notices } = runtimeOverFetch((url) =>
      url.includes('format=png')
        ? jsonResponse(404, { status: 404, title: 'Not Found', detail: '', code: 'not_found' })
        : jsonResponse(200, listOf(qr)),
    );
    renderAt('/accreditation-detail/sid-qr', runtime);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      messages['accreditation.error.credential_not_found'] as string,
    );
    expect(notices).toEqual([]);
  });
});

describe('AccreditationDetail', () => {
  it('revokes only after the confirmation dialog', async () => {
    const put = vi.fn((_path: string, _options: unknown) =>
      Promise.resolve({ ...qr, state: 'revoked', ends_at: new Date().toISOString(), valid: false }),
    );
    renderAt('/accreditation-detail/sid-qr', runtimeWith({ get: answering(listOf(qr), qr), put }));
    fireEvent.click(await screen.findByTestId('accreditation-revoke'));
    expect(await screen.findByRole('dialog')).toHaveTextContent('¿Revocar esta acreditación?');
    fireEvent.click(screen.getByTestId('revoke-cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(put).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('accreditation-revoke'));
    await act(async () => fireEvent.click(await screen.findByTestId('revoke-confirm')));
    expect(await screen.findByTestId('accreditation-revoked')).toBeInTheDocument();
    expect(put).toHaveBeenCalledWith(
      '/public/credentials/account-1/sids/sid-qr/state',
      expect.objectContaining({ json: { state: 'revoked' } }),
    );
  });
});

describe('MyAccreditations', () => {
  it('lists the kinds with their state and extends an expired QR in place', async () => {
    const expired = { ...qr, sid: 'sid-old', ends_at: new Date(NOW - DAY).toISOString(), valid: false };
    const face = { ...qr, sid: 'sid-face', credential_type: 'embedding' as const, ends_at: null };
    const extended = {
      ...expired,
      starts_at: new Date().toISOString(),
      ends_at: new Date(Date.now() + 15 * DAY).toISOString(),
      valid: true,
    };
    const put = vi.fn((_path: string, _options: unknown) => Promise.resolve(extended));
    renderAt('/my-accreditations', runtimeWith({ get: answering(listOf(qr, expired, face), expired), put }));
    const items = await screen.findAllByTestId('accreditation-item');
    expect(items.map((item) => item.getAttribute('data-kind'))).toEqual(['qr', 'qr', 'face']);
    expect(items.map((item) => item.querySelector('[data-status]')?.getAttribute('data-status'))).toEqual([
      'active',
      'expired',
      'active',
    ]);
    await waitFor(() => expect(screen.getByTestId('accreditation-extend')).toBeEnabled());
    fireEvent.click(screen.getByTestId('accreditation-extend'));
    expect(await screen.findByTestId('accreditation-extended')).toHaveTextContent('Ampliada hasta el');
    expect(put).toHaveBeenCalledWith(
      '/public/credentials/account-1/sids/sid-old/state',
      expect.objectContaining({ json: { state: 'active' } }),
    );
    // The row follows: valid again, with the new window.
    const row = screen.getAllByTestId('accreditation-item')[1];
    expect(row?.querySelector('[data-status]')?.getAttribute('data-status')).toBe('active');
  });

  it('asks for the person’s credentials once, the expired QR’s row included', async () => {
    const expired = { ...qr, sid: 'sid-old', ends_at: new Date(NOW - DAY).toISOString(), valid: false };
    const get = vi.fn(answering(listOf(qr, expired), expired));
    renderAt('/my-accreditations', runtimeWith({ get }));
    // The extend button is enabled once the row's machine has its credential: every call has been made.
    await waitFor(() => expect(screen.getByTestId('accreditation-extend')).toBeEnabled());
    const paths = get.mock.calls.map(([path]) => path);
    expect(paths.filter((path) => path === '/public/credentials/account-1')).toHaveLength(1);
    expect(paths).toContain('/public/credentials/account-1/sids/sid-old');
  });
});
