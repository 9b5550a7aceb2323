// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import catalogue from '../../i18n/messages/en.json';
import type { Runtime } from '../../runtime/context';
import { RuntimeProvider } from '../../runtime/context';
import { AccountGate } from './parts';

// A session that names the account only when told to, as the real one does a moment after a screen mounts.
const lateSession = setup({
  types: { context: {} as { session: { userId: string } | null }, events: {} as { type: 'named' } },
  actions: { nameAccount: assign({ session: { userId: 'account-7' } }) },
}).createMachine({ id: 'session', context: { session: null }, on: { named: { actions: 'nameAccount' } } });

describe('AccountGate', () => {
  it('says "Loading…" in words until the session names the account, then shows the screen for it', () => {
    const session = createActor(lateSession).start();
    render(
      <IntlProvider locale="en" messages={catalogue}>
        <RuntimeProvider runtime={{ session } as unknown as Runtime}>
          <AccountGate>{(accountId) => <p>Screen of {accountId}</p>}</AccountGate>
        </RuntimeProvider>
      </IntlProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    expect(screen.queryByText(/Screen of/)).toBeNull();

    act(() => session.send({ type: 'named' }));
    expect(screen.getByText('Screen of account-7')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
