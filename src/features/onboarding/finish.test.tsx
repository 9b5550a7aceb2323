// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { RegistrationErrorCode } from '../../../contract/domain/enrolment';
import type { EnrolmentContext } from '../../../machines/enrolment.machine';
import catalogue from '../../i18n/messages/es.json';
import type { Runtime } from '../../runtime/context';
import { RuntimeProvider } from '../../runtime/context';
import {
  FinishRegister,
  FinishRegisterWithError,
  FinishRegisterWithQr,
  registrationErrorCodeOf,
} from './finish';
import { fakeRuntime, storeEnrolment } from './testing/fake-runtime';

const messages: Record<string, string> = catalogue;

function renderAt(path: string, runtime: Runtime) {
  const location = memoryLocation({ path, record: true });
  const view = render(
    <IntlProvider locale="es" messages={messages}>
      <RuntimeProvider runtime={runtime}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <Route path="/finish-register-error/:errorCode" component={FinishRegisterWithError} />
          <Route path="/finish-register/:userId/:qrId" component={FinishRegisterWithQr} />
          <Route path="/finish-register/:userId" component={FinishRegister} />
        </Router>
      </RuntimeProvider>
    </IntlProvider>,
  );
  return { ...view, location };
}

const CODES: RegistrationErrorCode[] = [
  'underage',
  'forbidden-list',
  'document-expired',
  'life-proofing-failed',
  'already-registered',
  'document-already-in-use',
  'enforcement-source-unavailable',
  'unknown',
];

const STATE_OF: Record<RegistrationErrorCode, string> = {
  underage: 'underage',
  'forbidden-list': 'forbiddenList',
  'document-expired': 'documentExpired',
  'life-proofing-failed': 'lifeProofingFailed',
  'already-registered': 'alreadyRegistered',
  'document-already-in-use': 'documentAlreadyInUse',
  'enforcement-source-unavailable': 'enforcementSourceUnavailable',
  unknown: 'unknown',
};

afterEach(() => vi.restoreAllMocks());

describe('registrationErrorCodeOf', () => {
  it('keeps the spec §8 codes and makes anything else unknown', () => {
    for (const code of CODES) expect(registrationErrorCodeOf(code)).toBe(code);
    expect(registrationErrorCodeOf('constructor')).toBe('unknown');
    expect(registrationErrorCodeOf(undefined)).toBe('unknown');
  });
});

describe('FinishRegisterWithError', () => {
  it.each(CODES)('signed out, %s: its own title and message, announced, and no retry', (code) => {
    renderAt(`/finish-register-error/${code}`, fakeRuntime({ signedIn: false }));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(messages[`finishError.${code}.title`] ?? 'missing title');
    expect(alert).toHaveTextContent(messages[`finishError.${code}.message`] ?? 'missing message');
    expect(screen.queryByTestId('finish-error-retry')).toBeNull();
    expect(screen.getByTestId('finish-error-back')).toHaveAttribute('href', '/');
  });

  it('shows an unrecognised code as unknown', () => {
    renderAt('/finish-register-error/%3Cscript%3E', fakeRuntime({ signedIn: false }));
    expect(screen.getByRole('alert')).toHaveTextContent(messages['finishError.unknown.title'] ?? 'missing');
  });

  it.each(CODES)('signed in, %s: the retry button only where the machine can retry', (code) => {
    storeEnrolment({ onboarding: { registrationFailed: STATE_OF[code] } });
    renderAt(`/finish-register-error/${code}`, fakeRuntime({ signedIn: true }));
    expect(screen.getByRole('alert')).toHaveTextContent(messages[`finishError.${code}.title`] ?? 'missing');
    if (code === 'enforcement-source-unavailable') {
      expect(screen.getByTestId('finish-error-retry')).toBeInTheDocument();
    } else {
      expect(screen.queryByTestId('finish-error-retry')).toBeNull();
    }
  });

  it('sends registration.retry and waits for the answer', async () => {
    storeEnrolment({ onboarding: { registrationFailed: 'enforcementSourceUnavailable' } });
    renderAt('/finish-register-error/enforcement-source-unavailable', fakeRuntime({ signedIn: true }));
    fireEvent.click(screen.getByTestId('finish-error-retry'));
    await waitFor(() => expect(screen.queryByTestId('finish-error-retry')).toBeNull());
    expect(screen.getByText(messages['finishError.retrying'] ?? 'missing')).toBeInTheDocument();
    expect(screen.getByTestId('finish-error-back')).toBeDisabled();
  });

  it('back to start forgets the onboarding here and goes home', () => {
    storeEnrolment({ onboarding: { registrationFailed: 'documentExpired' } });
    const runtime = fakeRuntime({ signedIn: true });
    renderAt('/finish-register-error/document-expired', runtime);
    fireEvent.click(screen.getByTestId('finish-error-back'));
    expect(runtime.navigate).toHaveBeenCalledWith('/landing');
  });

  it('follows the machine: a URL with another code shows the code the enrolment is at', async () => {
    storeEnrolment({ onboarding: { registrationFailed: 'underage' } });
    const { location } = renderAt('/finish-register-error/unknown', fakeRuntime({ signedIn: true }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/finish-register-error/underage'));
    expect(screen.getByRole('alert')).toHaveTextContent(messages['finishError.underage.title'] ?? 'missing');
  });
});

describe('FinishRegister', () => {
  it('continues home with enrolment.finish', () => {
    storeEnrolment({ enrolled: 'withoutQr' }, { registration: reg(null) });
    const runtime = fakeRuntime({ signedIn: true });
    renderAt('/finish-register/u-1', runtime);
    expect(screen.getByText(messages['finish.title'] ?? 'missing')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('finish-continue'));
    expect(runtime.navigate).toHaveBeenCalledWith('/landing');
  });
});

function reg(qrSid: string | null): EnrolmentContext['registration'] {
  return { outcome: 'accepted', reason: null, userId: 'u-1', qrSid };
}

const QR = { userId: 'u-1', qrSid: 'q-1' };

describe('FinishRegisterWithQr', () => {
  function stubObjectUrls() {
    const create = vi.fn(() => 'blob:qr-1');
    const revoke = vi.fn();
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
    return { create, revoke };
  }

  it('shows the QR credential as an image and frees it on leaving', async () => {
    const urls = stubObjectUrls();
    storeEnrolment({ enrolled: 'withQr' }, { registration: reg('q-1') }, { fetchQrImage: QR });
    const get = vi.fn(async () => new Blob(['png'], { type: 'image/png' }));
    const { unmount } = renderAt('/finish-register/u-1/q-1', fakeRuntime({ signedIn: true, api: { get } }));
    const image = await screen.findByTestId('finish-qr');
    expect(image).toHaveAttribute('src', 'blob:qr-1');
    expect(image).toHaveAttribute('alt', messages['finish.qr.alt']);
    expect(get).toHaveBeenCalledWith(
      '/public/credentials/u-1/sids/q-1?format=png',
      expect.objectContaining({ responseType: 'blob' }),
    );
    expect(screen.getByText(/15/)).toBeInTheDocument();
    unmount();
    expect(urls.revoke).toHaveBeenCalledWith('blob:qr-1');
  });

  it('says when the QR could not be loaded and tries again', async () => {
    stubObjectUrls();
    storeEnrolment({ enrolled: 'withQr' }, { registration: reg('q-1') }, { fetchQrImage: QR });
    const get = vi
      .fn()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(new Blob(['png'], { type: 'image/png' }));
    renderAt('/finish-register/u-1/q-1', fakeRuntime({ signedIn: true, api: { get } }));
    const retry = await screen.findByTestId('finish-qr-retry');
    expect(screen.getByText(messages['finish.qr.failed'] ?? 'missing')).toBeInTheDocument();
    await act(async () => fireEvent.click(retry));
    expect(await screen.findByTestId('finish-qr')).toHaveAttribute('src', 'blob:qr-1');
    expect(get).toHaveBeenCalledTimes(2);
  });
});
