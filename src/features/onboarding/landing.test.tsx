import { render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import catalogue from '../../i18n/messages/es.json';
import { RuntimeProvider } from '../../runtime/context';
import { Landing } from './landing';
import { fakeRuntime } from './testing/fake-runtime';

// Landing honours the tenant's userRegisterEnabled (spec §3): closed, it says so and offers no start.

const messages: Record<string, string> = catalogue;

function renderLanding(userRegisterEnabled: boolean) {
  const runtime = fakeRuntime({ signedIn: true });
  const tenant = runtime.app.getSnapshot().context.tenant as { settings: Record<string, unknown> };
  tenant.settings = {
    ...tenant.settings,
    assetsUrl: '/tenants/gambling',
    customImages: {},
    knowMoreUrl: '',
    userRegisterEnabled,
    assistantRegisterEnabled: true,
  };
  const location = memoryLocation({ path: '/landing' });
  render(
    <IntlProvider locale="es" messages={messages}>
      <RuntimeProvider runtime={runtime}>
        <Router hook={location.hook}>
          <Landing />
        </Router>
      </RuntimeProvider>
    </IntlProvider>,
  );
}

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
