// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ApiError } from '../../api/errors';
import { visitMachines } from '../../app/machines/visits';
import catalogue from '../../i18n/messages/es.json';
import { type Runtime, RuntimeProvider } from '../../runtime/context';
import { registerMachines } from '../../runtime/machines';
import { apiOverFetch } from '../../testing/stub-runtime';
import { type FakeApi, fakeRuntime } from '../onboarding/testing/fake-runtime';
import { VisitConfirmation } from './confirmation';
import { VisitDetail } from './detail';
import { NewVisit } from './new-visit';

// What VisitDetail and NewVisit show when their call fails in a way the API client leaves to them (a visit that
// is not there, a refusal with a code the portal has no words for), and NewVisit's places loaded again.
registerMachines(visitMachines);

const messages: Record<string, string> = catalogue;
const es = (id: string, values: Record<string, string> = {}) =>
  Object.entries(values).reduce(
    (text, [key, value]) => text.replace(`{${key}}`, value),
    messages[id] as string,
  );

const UNKNOWN = { code: 'a_code_nobody_knows', detail: 'Una razón que el portal no conoce' };

/** An answer of the server outside 2xx, as the API client rejects with it. */
const refusal = (status: number, problem: { code?: string; detail?: string; title?: string } = {}) =>
  new ApiError({
    kind: 'http',
    method: 'GET',
    path: '/public/visits',
    status,
    statusText: 'Conflict',
    problem: { status, title: problem.title ?? '', detail: problem.detail ?? '', ...problem },
  });

type Call = (path: string, options?: unknown) => Promise<unknown>;
const pending = () => new Promise<never>(() => {});

/** A visitor signed in, on a tenant that books visits at any of its places; the API answers as the test says. */
const runtimeWith = (api: { get?: Call; post?: Call }, client?: ReturnType<typeof apiOverFetch>['client']) =>
  fakeRuntime({
    signedIn: true,
    session: { roles: ['get_visits_me', 'post_visits_me'], email: 'visitor@gambling.example', name: 'Vera' },
    settings: { visits: { locations: [], mustAcceptPlan: false } },
    api: api as FakeApi,
    client,
  });

/** A runtime over the real API client, whose fetch the test answers: what the client says is what a person reads. */
function runtimeOverFetch(answer: (url: string) => Response) {
  const { client, notices } = apiOverFetch(answer);
  return { runtime: runtimeWith({}, client), notices };
}

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderAt(path: string, runtime: Runtime) {
  const [pathname, search = ''] = path.split('?');
  const location = memoryLocation({ path: pathname as string, searchPath: search });
  render(
    <IntlProvider locale="es" messages={messages}>
      <RuntimeProvider runtime={runtime}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <Route path="/visit-detail" component={VisitDetail} />
          <Route path="/new-visit" component={NewVisit} />
          <Route path="/confirmation/:token/:visitId" component={VisitConfirmation} />
          <Route path="/my-visits">MyVisits</Route>
        </Router>
      </RuntimeProvider>
    </IntlProvider>,
  );
}

afterEach(() => vi.clearAllMocks());

describe('VisitDetail, when the visit does not load', () => {
  it('says a visit that is not there is not there, with no Retry, and stays', async () => {
    const get = vi.fn(async (path: string) => {
      throw path.endsWith('/qr') ? refusal(404) : refusal(404, { code: 'not_found' });
    });
    renderAt('/visit-detail?data=v-1', runtimeWith({ get }));
    const failure = await screen.findByTestId('visit-load-failure');
    expect(failure).toHaveTextContent(es('visits.loadFailed'));
    expect(failure).toHaveTextContent(es('common.errors.not_found'));
    expect(screen.queryByRole('button', { name: es('visits.retry') })).toBeNull();
    expect(screen.getByRole('link', { name: es('screen.MyVisits') })).toHaveAttribute('href', '/my-visits');
  });

  it("says a refusal with a code it has no words for in the server's words, never the code, and retries", async () => {
    let answer: () => Promise<unknown> = async () => {
      throw refusal(409, UNKNOWN);
    };
    const get = vi.fn((path: string) => (path.endsWith('/qr') ? pending() : answer()));
    renderAt('/visit-detail?data=v-1', runtimeWith({ get }));
    const failure = await screen.findByTestId('visit-load-failure');
    expect(failure).toHaveTextContent(es('common.serverProblem', { detail: UNKNOWN.detail }));
    expect(failure).not.toHaveTextContent(UNKNOWN.code);
    answer = pending;
    fireEvent.click(screen.getByRole('button', { name: es('visits.retry') }));
    await waitFor(() => expect(screen.queryByTestId('visit-load-failure')).toBeNull());
    expect(get.mock.calls.filter(([path]) => path === '/public/visits/v-1')).toHaveLength(2);
  });

  it('falls back to the title when the server gave no detail', async () => {
    const get = vi.fn(async () => {
      throw refusal(409, { code: UNKNOWN.code, title: 'Conflicto raro' });
    });
    renderAt('/visit-detail?data=v-1', runtimeWith({ get }));
    expect(await screen.findByTestId('visit-load-failure')).toHaveTextContent(
      es('common.serverProblem', { detail: 'Conflicto raro' }),
    );
  });

  it('goes to MyVisits without a data param (spec §2), with no call', async () => {
    const get = vi.fn((_path: string) => pending());
    renderAt('/visit-detail', runtimeWith({ get }));
    expect(await screen.findByText('MyVisits')).toBeInTheDocument();
    expect(get.mock.calls.map(([path]) => path).filter((path) => !path.endsWith('/qr'))).toEqual([]);
  });
});

describe('VisitDetail, the QR to print', () => {
  const visit = {
    id: 'v-1',
    title: 'Reunión',
    expected_at: '2030-01-01T10:00:00Z',
    leaving_at: '2030-01-01T11:00:00Z',
    host: { email: 'host@gambling.example', name: 'Hodei' },
    location: { facility_id: 'l-1', alias: 'Sede', timezone: 'Europe/Madrid' },
    history: [],
    status: 'accepted',
    visitor: 'a-1',
    visitorData: { name: 'Vera', email: 'visitor@gambling.example' },
    visitorProfile: {},
    guests: 0,
  };

  it('says when it could not be loaded, and loads it again on request', async () => {
    let qr: () => Promise<unknown> = async () => {
      throw new ApiError({ kind: 'network', method: 'GET', path: '/public/visits/v-1/qr' });
    };
    const get = vi.fn((path: string) => (path.endsWith('/qr') ? qr() : Promise.resolve(visit)));
    renderAt('/visit-detail?data=v-1', runtimeWith({ get }));
    const failed = await screen.findByTestId('visit-qr-failed');
    expect(failed).toHaveTextContent(es('visits.qrFailed'));
    qr = pending;
    fireEvent.click(screen.getByRole('button', { name: es('visits.qrRetry') }));
    await waitFor(() => expect(screen.queryByTestId('visit-qr-failed')).toBeNull());
    expect(get.mock.calls.filter(([path]) => path.endsWith('/qr'))).toHaveLength(2);
  });

  it('says why it could not be loaded beside "could not be loaded", in the API client\'s words', async () => {
    const { runtime, notices } = runtimeOverFetch((url) => {
      if (url.endsWith('/qr')) throw new TypeError('Failed to fetch');
      return jsonResponse(200, visit);
    });
    renderAt('/visit-detail?data=v-1', runtime);
    expect(await screen.findByTestId('visit-qr-failed')).toHaveTextContent(es('visits.qrFailed'));
    expect(notices).toEqual([{ level: 'error', messageId: 'common.http.network' }]);
    expect(screen.getByRole('button', { name: es('visits.qrRetry') })).toBeEnabled();
  });

  it("says a QR the visitor does not hold (a 404) in the screen's words alone, with no notice beside", async () => {
    const { runtime, notices } = runtimeOverFetch((url) =>
      url.endsWith('/qr')
        ? jsonResponse(404, { status: 404, title: 'Not Found', detail: '', code: 'not_found' })
        : jsonResponse(200, visit),
    );
    renderAt('/visit-detail?data=v-1', runtime);
    expect(await screen.findByTestId('visit-qr-none')).toHaveTextContent(es('visits.qrNone.self'));
    expect(notices).toEqual([]);
  });

  it('says, when the visitor holds no valid QR (a 404), that there is none to print and how to have one', async () => {
    const get = vi.fn(async (path: string) => {
      if (path.endsWith('/qr')) throw refusal(404, { code: 'not_found' });
      return visit;
    });
    renderAt('/visit-detail?data=v-1', runtimeWith({ get }));
    await waitFor(() => expect(get.mock.calls.filter(([path]) => path.endsWith('/qr'))).toHaveLength(1));
    await screen.findByTestId('visit-status');
    expect(await screen.findByTestId('visit-qr-none')).toHaveTextContent(es('visits.qrNone.self'));
    expect(screen.getByTestId('visit-qr-none')).toHaveAttribute('role', 'status');
    expect(screen.queryByTestId('visit-qr-failed')).toBeNull();
    expect(screen.queryByTestId('visit-print')).toBeNull();
  });
});

describe('VisitConfirmation, a refusal it has no words for', () => {
  it("says it in the server's words, never the code, and the host may answer again", async () => {
    const post = vi.fn(async () => {
      throw refusal(409, UNKNOWN);
    });
    renderAt('/confirmation/t-1/v-1', runtimeWith({ post }));
    fireEvent.click(await screen.findByTestId('confirmation-accept'));
    const shown = await screen.findByTestId('visit-refusal');
    expect(shown).toHaveTextContent(es('common.serverProblem', { detail: UNKNOWN.detail }));
    expect(shown).not.toHaveTextContent(UNKNOWN.code);
    expect(screen.getByTestId('confirmation-accept')).toBeEnabled();
  });

  it('takes a 401 for the link refused, never for a session that expired', async () => {
    const post = vi.fn(async () => {
      throw refusal(401, { title: 'Unauthorized' });
    });
    renderAt('/confirmation/t-1/v-1', runtimeWith({ post }));
    fireEvent.click(await screen.findByTestId('confirmation-accept'));
    expect(await screen.findByTestId('visit-refusal')).toHaveTextContent(es('common.errors.invalid_token'));
    expect(screen.queryByTestId('confirmation-accept')).toBeNull();
  });
});

describe('NewVisit, when something fails', () => {
  const PLACES = [{ facility_id: 'f-1', alias: 'Sala Bilbao', timezone: 'Europe/Madrid' }];

  async function fillForm() {
    const location = await screen.findByLabelText(es('newVisit.location'));
    fireEvent.change(location, { target: { value: 'f-1' } });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    fireEvent.change(screen.getByLabelText(es('newVisit.host')), {
      target: { value: 'host@gambling.example' },
    });
    fireEvent.change(screen.getByLabelText(es('newVisit.date')), { target: { value: tomorrow } });
    fireEvent.change(screen.getByLabelText(es('newVisit.startAt')), { target: { value: '10:00' } });
    fireEvent.change(screen.getByLabelText(es('newVisit.endAt')), { target: { value: '11:00' } });
    fireEvent.change(screen.getByLabelText(es('newVisit.title')), { target: { value: 'Reunión' } });
  }

  it.each([
    ['a 409 with a code it has no words for', refusal(409, UNKNOWN), es('common.serverProblem', UNKNOWN)],
    ['a 404', refusal(404, { code: 'not_found' }), es('common.errors.not_found')],
  ])('says what %s means, keeps every typed value, and sends again', async (_, error, words) => {
    sessionStorage.clear();
    const post = vi.fn(async () => {
      throw error;
    });
    renderAt('/new-visit', runtimeWith({ get: async () => PLACES, post }));
    await fillForm();
    fireEvent.click(screen.getByTestId('new-visit-submit'));
    const refused = await screen.findByTestId('new-visit-refused');
    expect(refused).toHaveTextContent(es('newVisit.failed'));
    expect(refused).toHaveTextContent(words);
    expect(refused).not.toHaveTextContent(UNKNOWN.code);
    expect(screen.getByLabelText(es('newVisit.host'))).toHaveValue('host@gambling.example');
    expect(screen.getByLabelText(es('newVisit.title'))).toHaveValue('Reunión');
    expect(screen.getByLabelText(es('newVisit.location'))).toHaveValue('f-1');
    fireEvent.click(screen.getByTestId('new-visit-submit'));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
  });

  it('keeps Send unavailable while the places load (a press then would build no request), and sends once they are in', async () => {
    sessionStorage.clear();
    let places = (_: typeof PLACES) => {};
    const get = vi.fn(
      () =>
        new Promise((resolve) => {
          places = resolve;
        }),
    );
    const post = vi.fn(pending);
    renderAt('/new-visit', runtimeWith({ get, post }));
    await waitFor(() => expect(get).toHaveBeenCalledTimes(1));
    const send = screen.getByTestId('new-visit-submit');
    expect(send).toBeDisabled();
    places(PLACES);
    await fillForm();
    expect(send).toBeEnabled();
    fireEvent.click(send);
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
  });

  it('loads the places again when the person asks, after they failed, keeping what was typed', async () => {
    sessionStorage.clear();
    let fail = true;
    const get = vi.fn(async () => {
      if (fail) throw new ApiError({ kind: 'network', method: 'GET', path: '/internal/facilities' });
      return PLACES;
    });
    renderAt('/new-visit', runtimeWith({ get }));
    expect(await screen.findByTestId('new-visit-locations-failed')).toHaveTextContent(
      es('newVisit.locationsFailed'),
    );
    fireEvent.change(screen.getByLabelText(es('newVisit.host')), {
      target: { value: 'host@gambling.example' },
    });
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: es('newVisit.locationsRetry') }));
    expect(await screen.findByRole('option', { name: 'Sala Bilbao (Europe/Madrid)' })).toBeInTheDocument();
    expect(screen.getByLabelText(es('newVisit.host'))).toHaveValue('host@gambling.example');
    expect(screen.queryByTestId('new-visit-locations-failed')).toBeNull();
    expect(get).toHaveBeenCalledTimes(2);
  });
});
