// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { compactUserCode, isUserCode } from '../../../contract/domain/user-code';
import type { HandoffStatus } from '../../../machines/device-handoff.machine';
import { redeemProblemOf } from '../../../machines/phone-handoff.machine';
import { enrolmentRuntimeOf } from '../../actors/enrolment';
import { ApiError } from '../../api/errors';
import { deviceHandoffMachines } from '../../app/machines/device-handoff';
import catalogue from '../../i18n/messages/es.json';
import type { Runtime } from '../../runtime/context';
import { RuntimeProvider } from '../../runtime/context';
import { registerMachines } from '../../runtime/machines';
import { DeviceDetect, formatCountdown, groupUserCode, handoffSteps, safeDownloadUrl } from './device-detect';
import { fakeRuntime, storeEnrolment } from './testing/fake-runtime';

// The area's machines with their real actors over the fake API client, as src/app/routes.ts registers them.
registerMachines(deviceHandoffMachines);

const messages: Record<string, string> = catalogue;
const text = (id: string) => messages[id] ?? `missing ${id}`;

const DESKTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const OLD_PHONE_UA =
  'Mozilla/5.0 (Linux; Android 9; SM-G960F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.0.0 Mobile Safari/537.36';

const BROWSERS = {
  chrome: { minMobileVersion: 100, minDesktopVersion: 100, downloadUrl: 'https://www.google.com/chrome/' },
  safari: { minMobileVersion: 15, minDesktopVersion: 15, downloadUrl: 'http://insecure.example/safari' },
};

const runtimeOf = (options: Parameters<typeof fakeRuntime>[0]) =>
  fakeRuntime({ browsers: BROWSERS, ...options });

function renderAt(path: string, runtime: Runtime) {
  const [pathname, search = ''] = path.split('?');
  const location = memoryLocation({ path: pathname, searchPath: search, record: true });
  const view = render(
    <IntlProvider locale="es" messages={messages}>
      <RuntimeProvider runtime={runtime}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <Route path="/device-detect" component={DeviceDetect} />
        </Router>
      </RuntimeProvider>
    </IntlProvider>,
  );
  return { ...view, location };
}

const status = (overrides: Partial<HandoffStatus> = {}): HandoffStatus => ({
  status: 'in_progress',
  legal_terms_accepted: false,
  portrayals: [],
  outcome: null,
  reason: null,
  user_id: null,
  qr_sid: null,
  ...overrides,
});

const httpError = (status: number) => new ApiError({ kind: 'http', method: 'POST', path: '/x', status });

let userAgent = DESKTOP_UA;
beforeEach(() => {
  userAgent = DESKTOP_UA;
  vi.spyOn(navigator, 'userAgent', 'get').mockImplementation(() => userAgent);
});
afterEach(() => vi.restoreAllMocks());

describe('user codes', () => {
  it('accepts a code as typed and groups it 4-4', () => {
    expect(compactUserCode(' abcd-2345 ')).toBe('ABCD2345');
    expect(compactUserCode('ab cd 23 45')).toBe('ABCD2345');
    expect(isUserCode('ABCD2345')).toBe(true);
    expect(isUserCode('ABCD234')).toBe(false);
    expect(isUserCode('ABCD23456')).toBe(false);
    expect(groupUserCode('ABCD2345')).toBe('ABCD 2345');
  });

  it('counts down in m:ss and never below zero', () => {
    expect(formatCountdown(600_000)).toBe('10:00');
    expect(formatCountdown(61_000)).toBe('1:01');
    expect(formatCountdown(500)).toBe('0:01');
    expect(formatCountdown(-3_000)).toBe('0:00');
  });

  it('offers only https download links', () => {
    expect(safeDownloadUrl('https://www.google.com/chrome/')).toBe('https://www.google.com/chrome/');
    expect(safeDownloadUrl('http://example.com')).toBeUndefined();
    expect(safeDownloadUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeDownloadUrl(undefined)).toBeUndefined();
  });

  it('names what redeeming failed with', () => {
    expect(redeemProblemOf(httpError(404))).toBe('not-found');
    expect(redeemProblemOf(httpError(422))).toBe('not-found');
    expect(redeemProblemOf(httpError(410))).toBe('expired');
    expect(redeemProblemOf(httpError(409))).toBe('used');
    expect(redeemProblemOf({ status: 409, code: 'user_code_used' })).toBe('used');
    // Another conflict is not a used code: it could not be checked.
    expect(redeemProblemOf({ status: 409, code: 'zz_conflict_nobody_knows' })).toBe('failed');
    expect(redeemProblemOf(httpError(500))).toBe('failed');
    expect(redeemProblemOf(new ApiError({ kind: 'network', method: 'POST', path: '/x' }))).toBe('failed');
    expect(redeemProblemOf(new Error('?'))).toBe('failed');
  });
});

describe('handoffSteps', () => {
  it('reads the phone progress from the status', () => {
    const steps = handoffSteps(
      status({
        legal_terms_accepted: true,
        portrayals: [{ portrayal_type: 'document', images: ['obverse', 'reverse'], result: 'pending' }],
      }),
      true,
    );
    expect(steps).toEqual([
      { id: 'legalTerms', done: true },
      { id: 'document', done: true },
      { id: 'selfie', done: false },
      { id: 'result', done: false },
      { id: 'finished', done: false },
    ]);
    const finished = handoffSteps(
      status({
        status: 'completed',
        legal_terms_accepted: true,
        portrayals: [{ portrayal_type: 'document', images: ['obverse', 'selfie'], result: 'ready' }],
      }),
      true,
    );
    expect(finished.every((step) => step.done)).toBe(true);
  });

  it('leaves out the document without identity proofing, and knows nothing before the first answer', () => {
    expect(handoffSteps(null, false).map((step) => step.id)).toEqual([
      'legalTerms',
      'selfie',
      'result',
      'finished',
    ]);
    expect(handoffSteps(null, false).some((step) => step.done)).toBe(false);
  });
});

describe('DeviceDetect on a computer', () => {
  it('says to continue on the phone and offers to sign in, back to this screen', () => {
    const runtime = runtimeOf({ signedIn: false });
    const send = vi.spyOn(runtime.session, 'send');
    renderAt('/device-detect', runtime);
    expect(screen.getByTestId('device-detect-reason')).toHaveAttribute('data-reason', 'desktop');
    expect(screen.getByText(text('deviceDetect.desktop.title'))).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('device-detect-login'));
    expect(send).toHaveBeenCalledWith({ type: 'session.login', returnTo: '/device-detect' });
  });

  it('shows the code, its QR, the link and a countdown, and follows the phone', async () => {
    storeEnrolment({ onboarding: 'legalTerms' }, { onboardingId: 'o-1', identityProofing: true });
    const post = vi.fn(async (path: string) => {
      expect(path).toBe('/user-code/generate');
      return {
        code: 'ABCD2345',
        onboarding_id: 'o-1',
        expires_at: '2030-01-01T00:10:00Z',
        expires_in: 600,
        link: 'http://localhost/device-detect?code=ABCD2345',
        qr: 'data:image/png;base64,AAAA',
      };
    });
    const get = vi.fn(async () =>
      status({
        legal_terms_accepted: true,
        portrayals: [{ portrayal_type: 'document', images: ['obverse'], result: 'pending' }],
      }),
    );
    renderAt('/device-detect', runtimeOf({ signedIn: true, api: { post, get } }));
    expect(await screen.findByTestId('device-detect-user-code')).toHaveTextContent('ABCD 2345');
    expect(post).toHaveBeenCalledWith(
      '/user-code/generate',
      expect.objectContaining({ json: { onboarding_id: 'o-1' } }),
    );
    expect(screen.getByRole('img')).toHaveAttribute('src', 'data:image/png;base64,AAAA');
    expect(screen.getByText('http://localhost/device-detect?code=ABCD2345')).toBeInTheDocument();
    // Ten minutes at most, counting down (how far it has counted depends on how busy the machine is).
    expect(screen.getByRole('timer')).toHaveTextContent(/\b(10:00|\d:[0-5]\d)\b/);
    const progress = screen.getByTestId('device-detect-progress');
    await waitFor(() =>
      expect(
        within(progress).getByText(text('deviceDetect.progress.legalTerms')).closest('li'),
      ).toHaveAttribute('data-done', 'true'),
    );
    expect(within(progress).getByText(text('deviceDetect.progress.document')).closest('li')).toHaveAttribute(
      'data-done',
      'true',
    );
    expect(within(progress).getByText(text('deviceDetect.progress.selfie')).closest('li')).toHaveAttribute(
      'data-done',
      'false',
    );
    expect(get).toHaveBeenCalledWith('/internal/onboardings/o-1/status', expect.anything());
  });

  it('offers a new code when the code could not be created', async () => {
    storeEnrolment({ onboarding: 'legalTerms' }, { onboardingId: 'o-1' });
    const post = vi.fn().mockRejectedValueOnce(httpError(500)).mockResolvedValueOnce({
      code: 'WXYZ6789',
      onboarding_id: 'o-1',
      expires_at: '2030-01-01T00:10:00Z',
      expires_in: 600,
    });
    renderAt('/device-detect', runtimeOf({ signedIn: true, api: { post } }));
    fireEvent.click(await screen.findByTestId('device-detect-new-code'));
    expect(await screen.findByTestId('device-detect-user-code')).toHaveTextContent('WXYZ 6789');
  });

  it('shows the rejection reason with the finish-with-error messages', async () => {
    storeEnrolment({ onboarding: 'legalTerms' }, { onboardingId: 'o-1' });
    const get = vi.fn(async () => status({ outcome: 'rejected', reason: 'underaged' }));
    renderAt('/device-detect', runtimeOf({ signedIn: true, api: { get } }));
    const rejected = await screen.findByTestId('device-detect-rejected');
    expect(rejected).toHaveTextContent(text('finishError.underage.title'));
    expect(rejected).toHaveTextContent(text('finishError.underage.message'));
  });

  it('once the phone has finished: success, and home forgets the onboarding here', async () => {
    storeEnrolment({ onboarding: 'legalTerms' }, { onboardingId: 'o-1' });
    const get = vi.fn(async () => status({ status: 'completed', outcome: 'accepted', user_id: 'u-1' }));
    const runtime = runtimeOf({ signedIn: true, api: { get } });
    const send = vi.spyOn(runtime.session, 'send');
    renderAt('/device-detect', runtime);
    fireEvent.click(await screen.findByTestId('device-detect-home'));
    // The session is renewed (the token now says enrolled) and the enrolment machine forgets the onboarding.
    expect(send).toHaveBeenCalledWith({ type: 'session.renew' });
    const actor = enrolmentRuntimeOf(runtime).actor();
    expect(actor?.getSnapshot().matches('notEnrolled')).toBe(true);
    expect(actor?.getSnapshot().context.onboardingId).toBeNull();
    expect(runtime.navigate).toHaveBeenCalledWith('/landing');
  });

  it('signed in without an onboarding: no code, how to go on', () => {
    renderAt('/device-detect', runtimeOf({ signedIn: true }));
    expect(screen.getByTestId('device-detect-no-onboarding')).toBeInTheDocument();
    expect(screen.queryByTestId('device-detect-code')).toBeNull();
  });
});

describe('DeviceDetect on a browser that will not do', () => {
  it('an outdated browser: update it, with the https download link only', () => {
    userAgent = OLD_PHONE_UA;
    renderAt('/device-detect', runtimeOf({ signedIn: false }));
    expect(screen.getByTestId('device-detect-reason')).toHaveAttribute('data-reason', 'outdated');
    const link = screen.getByTestId('device-detect-download');
    expect(link).toHaveAttribute('href', 'https://www.google.com/chrome/');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('not Safari on iOS: no link to an http download address', () => {
    userAgent =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1';
    renderAt('/device-detect', runtimeOf({ signedIn: false }));
    expect(screen.getByTestId('device-detect-reason')).toHaveAttribute('data-reason', 'ios-not-safari');
    expect(screen.queryByTestId('device-detect-download')).toBeNull();
  });
});

describe('DeviceDetect on a phone', () => {
  beforeEach(() => {
    userAgent = PHONE_UA;
  });
  afterEach(() => sessionStorage.clear());

  it('without a code: the device is fine, go on', () => {
    renderAt('/device-detect', runtimeOf({ signedIn: true }));
    expect(screen.getByTestId('device-detect-ready')).toHaveTextContent(text('deviceDetect.ready.title'));
    expect(screen.getByRole('link', { name: text('deviceDetect.ready.continue') })).toHaveAttribute(
      'href',
      '/landing',
    );
  });

  it('a code typed by hand is redeemed like one in the address, and the address stays as it is', async () => {
    const post = vi.fn(async () => ({ onboarding_id: 'o-9', expires_at: '2030-01-01T00:10:00Z' }));
    const runtime = runtimeOf({ signedIn: true, api: { post } });
    const { location } = renderAt('/device-detect', runtime);
    fireEvent.change(screen.getByLabelText(text('deviceDetect.codeForm.label')), {
      target: { value: 'abcd 2345' },
    });
    fireEvent.submit(screen.getByTestId('device-detect-code-form'));
    const actor = enrolmentRuntimeOf(runtime).actor();
    await waitFor(() => expect(actor?.getSnapshot().context.onboardingId).toBe('o-9'));
    expect(post).toHaveBeenCalledWith(
      '/user-code/redeem',
      expect.objectContaining({ json: { code: 'ABCD2345' } }),
    );
    expect(location.history).toEqual(['/device-detect']);
  });

  it('a code typed while signed out: sign in first, back to this address with the code', () => {
    const runtime = runtimeOf({ signedIn: false });
    const send = vi.spyOn(runtime.session, 'send');
    renderAt('/device-detect', runtime);
    fireEvent.change(screen.getByLabelText(text('deviceDetect.codeForm.label')), {
      target: { value: 'ABCD2345' },
    });
    fireEvent.submit(screen.getByTestId('device-detect-code-form'));
    fireEvent.click(screen.getByTestId('device-detect-login'));
    expect(send).toHaveBeenCalledWith({ type: 'session.login', returnTo: '/device-detect?code=ABCD2345' });
  });

  it('a malformed code in the address is refused without asking the server', async () => {
    const post = vi.fn();
    renderAt('/device-detect?code=nope', runtimeOf({ signedIn: true, api: { post } }));
    expect(await screen.findByTestId('device-detect-redeem-error')).toHaveAttribute(
      'data-problem',
      'not-found',
    );
    expect(post).not.toHaveBeenCalled();
  });

  it('with a code, signed out: sign in with the same account, back to this address', () => {
    const runtime = runtimeOf({ signedIn: false });
    const send = vi.spyOn(runtime.session, 'send');
    renderAt('/device-detect?code=abcd-2345', runtime);
    expect(screen.getByText(text('deviceDetect.phone.sameAccount'))).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('device-detect-login'));
    expect(send).toHaveBeenCalledWith({ type: 'session.login', returnTo: '/device-detect?code=abcd-2345' });
  });

  it('with a code, signed in: redeems it once and continues the onboarding here', async () => {
    const post = vi.fn(async () => ({ onboarding_id: 'o-9', expires_at: '2030-01-01T00:10:00Z' }));
    const runtime = runtimeOf({ signedIn: true, api: { post } });
    renderAt('/device-detect?code=abcd-2345', runtime);
    const actor = enrolmentRuntimeOf(runtime).actor();
    await waitFor(() => expect(actor?.getSnapshot().matches('continuingOnboarding')).toBe(true));
    expect(actor?.getSnapshot().context.onboardingId).toBe('o-9');
    expect(post).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledWith(
      '/user-code/redeem',
      expect.objectContaining({ json: { code: 'ABCD2345' } }),
    );
  });

  it.each([
    [404, 'deviceDetect.redeem.notFound'],
    [410, 'deviceDetect.redeem.expired'],
    [409, 'deviceDetect.redeem.used'],
  ])('a refused code (%i) says why and takes another by hand', async (code, id) => {
    const post = vi
      .fn()
      .mockRejectedValueOnce(httpError(code))
      .mockResolvedValue({ onboarding_id: 'o-2', expires_at: '2030-01-01T00:10:00Z' });
    renderAt('/device-detect?code=ABCD2345', runtimeOf({ signedIn: true, api: { post } }));
    expect(await screen.findByTestId('device-detect-redeem-error')).toHaveTextContent(text(id));
    const field = screen.getByLabelText(text('deviceDetect.codeForm.label'));
    fireEvent.change(field, { target: { value: 'wxyz' } });
    fireEvent.submit(screen.getByTestId('device-detect-code-form'));
    expect(screen.getByText(text('deviceDetect.codeForm.invalid'))).toBeInTheDocument();
    fireEvent.change(field, { target: { value: 'wxyz-6789' } });
    fireEvent.submit(screen.getByTestId('device-detect-code-form'));
    // The typed code is the same event as a code in the address: the machine redeems it.
    await waitFor(() =>
      expect(post).toHaveBeenLastCalledWith(
        '/user-code/redeem',
        expect.objectContaining({ json: { code: 'WXYZ6789' } }),
      ),
    );
  });

  it('a code typed before a sign-out (a 401 on redeeming) is there, typed, after signing in again', async () => {
    const post = vi.fn(() => Promise.reject(httpError(401)));
    const first = renderAt('/device-detect', runtimeOf({ signedIn: true, api: { post } }));
    fireEvent.change(screen.getByLabelText(text('deviceDetect.codeForm.label')), {
      target: { value: 'abcd 2345' },
    });
    fireEvent.submit(screen.getByTestId('device-detect-code-form'));
    await waitFor(() => expect(post).toHaveBeenCalled());
    // The sign-out leaves the page; signing in again loads it anew.
    first.unmount();
    renderAt('/device-detect', runtimeOf({ signedIn: true }));
    expect(screen.getByLabelText(text('deviceDetect.codeForm.label'))).toHaveValue('ABCD2345');
  });

  it('a code redeemed is forgotten: the next visit finds the field empty', async () => {
    const post = vi.fn(async () => ({ onboarding_id: 'o-9', expires_at: '2030-01-01T00:10:00Z' }));
    const runtime = runtimeOf({ signedIn: true, api: { post } });
    const first = renderAt('/device-detect', runtime);
    fireEvent.change(screen.getByLabelText(text('deviceDetect.codeForm.label')), {
      target: { value: 'ABCD2345' },
    });
    fireEvent.submit(screen.getByTestId('device-detect-code-form'));
    const actor = enrolmentRuntimeOf(runtime).actor();
    await waitFor(() => expect(actor?.getSnapshot().context.onboardingId).toBe('o-9'));
    await waitFor(() => expect(JSON.stringify({ ...sessionStorage })).not.toContain('ABCD2345'));
    first.unmount();
    localStorage.clear();
    renderAt('/device-detect', runtimeOf({ signedIn: true }));
    expect(screen.getByLabelText(text('deviceDetect.codeForm.label'))).toHaveValue('');
  });

  it('a code that could not be checked stays in the field, sent again as it is', async () => {
    const post = vi
      .fn()
      .mockRejectedValueOnce(httpError(500))
      .mockResolvedValue({ onboarding_id: 'o-2', expires_at: '2030-01-01T00:10:00Z' });
    renderAt('/device-detect', runtimeOf({ signedIn: true, api: { post } }));
    fireEvent.change(screen.getByLabelText(text('deviceDetect.codeForm.label')), {
      target: { value: 'abcd 2345' },
    });
    fireEvent.submit(screen.getByTestId('device-detect-code-form'));
    expect(await screen.findByTestId('device-detect-redeem-error')).toHaveTextContent(
      text('deviceDetect.redeem.failed'),
    );
    expect(screen.getByLabelText(text('deviceDetect.codeForm.label'))).toHaveValue('ABCD2345');
    fireEvent.submit(screen.getByTestId('device-detect-code-form'));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect(post).toHaveBeenLastCalledWith(
      '/user-code/redeem',
      expect.objectContaining({ json: { code: 'ABCD2345' } }),
    );
  });
});
