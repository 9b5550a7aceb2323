// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { loadRestOfCatalogue } from '../../i18n/catalogue';
import catalogue from '../../i18n/messages/es.json';
import { RuntimeProvider } from '../../runtime/context';
import { EnrolmentFrame } from './enrolment-frame';
import { Landing } from './landing';
import { type FakeApi, fakeRuntime, storeEnrolment } from './testing/fake-runtime';

vi.mock('../../i18n/catalogue', async (original) => ({
  ...(await original<typeof import('../../i18n/catalogue')>()),
  loadRestOfCatalogue: vi.fn(async () => {}),
}));

// Landing honours the tenant's userRegisterEnabled (spec §3): closed, it says so and offers no start.

const messages: Record<string, string> = catalogue;

function renderLanding(userRegisterEnabled: boolean, api?: FakeApi) {
  const runtime = fakeRuntime({ signedIn: true, api });
  const tenant = runtime.app.getSnapshot().context.tenant as { settings: Record<string, unknown> };
  tenant.settings = {
    ...tenant.settings,
    assetsUrl: '/tenants/gambling',
    customImages: {},
    knowMoreUrl: '',
    userRegisterEnabled,
    assistantRegisterEnabled: true,
  };
  const location = memoryLocation({ path: '/landing', record: true });
  render(
    <IntlProvider locale="es" messages={messages}>
      <RuntimeProvider runtime={runtime}>
        <Router hook={location.hook}>
          <Landing />
        </Router>
      </RuntimeProvider>
    </IntlProvider>,
  );
  return location;
}

afterEach(() => localStorage.clear());

describe('before the session is known', () => {
  function renderSignedOut(tree: ReactNode) {
    render(
      <IntlProvider locale="es" messages={messages}>
        <RuntimeProvider runtime={fakeRuntime({ signedIn: false })}>
          <Router hook={memoryLocation({ path: '/landing' }).hook}>{tree}</Router>
        </RuntimeProvider>
      </IntlProvider>,
    );
  }

  it('Landing says it is loading in words, never a bare ellipsis', () => {
    renderSignedOut(<Landing />);
    expect(screen.getByRole('status')).toHaveTextContent(messages['common.loading'] as string);
    expect(screen.getByRole('status').textContent).not.toBe('…');
  });

  it('the enrolment frame says it is loading in words while it has no enrolment to show', () => {
    renderSignedOut(<EnrolmentFrame screen="DocumentScan">{() => <p>step</p>}</EnrolmentFrame>);
    expect(screen.getByRole('status')).toHaveTextContent(messages['common.loading'] as string);
    expect(screen.queryByText('step')).toBeNull();
  });
});

describe('Landing and userRegisterEnabled', () => {
  it('offers the start while self-registration is open', async () => {
    renderLanding(true);
    expect(await screen.findByTestId('enrolment-start')).toBeTruthy();
    expect(screen.queryByTestId('register-closed')).toBeNull();
  });

  it('says self-registration is closed and offers no start when it is off', async () => {
    renderLanding(false);
    expect((await screen.findByTestId('register-closed')).textContent).toBe(messages['landing.selfClosed']);
    expect(screen.queryByTestId('enrolment-start')).toBeNull();
  });
});

// Landing draws the machine's first state without loading it; the machine (and its frame) load when the person
// presses Start, or at once when there is an enrolment to resume. The tests of this block run first, before the
// frame's module has been loaded by any other test of this file.
describe('Landing and the enrolment machine', () => {
  it('draws notEnrolled before the machine has loaded, and Start starts the onboarding through it', async () => {
    const post = vi.fn((_path: string) => new Promise<never>(() => {}));
    // Landing's part of the catalogue has no words for a failed call: Start waits for the rest before it calls.
    let restLoaded = () => {};
    vi.mocked(loadRestOfCatalogue).mockImplementationOnce(
      () => new Promise<void>((resolve) => (restLoaded = resolve)),
    );
    renderLanding(true, { post });
    const section = document.querySelector('[data-screen="Landing"]');
    expect(section?.getAttribute('data-state')).toBe('"notEnrolled"');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(messages['landing.title']);
    fireEvent.click(screen.getByTestId('enrolment-start'));
    await waitFor(() => expect(loadRestOfCatalogue).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(post).not.toHaveBeenCalled();
    restLoaded();
    // The machine has heard Start: startingOnboarding, POST /internal/onboardings out, the button busy.
    await waitFor(() =>
      expect(document.querySelector('[data-screen="Landing"]')?.getAttribute('data-state')).toBe(
        '"startingOnboarding"',
      ),
    );
    await waitFor(() => expect(post).toHaveBeenCalledWith('/internal/onboardings', expect.anything()));
    expect(screen.getByTestId('enrolment-start')).toBeDisabled();
  });

  it('resumes an enrolment kept in this browser: the machine names the step and the URL follows', async () => {
    storeEnrolment({ onboarding: 'nextSteps' }, { onboardingId: 'o-1' });
    const location = renderLanding(true);
    await waitFor(() => expect(location.history?.at(-1)).toBe('/next-steps'));
  });
});
