// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import { portalMachines } from '../../app/machines/portal';
import catalogue from '../../i18n/messages/es.json';
import { RuntimeProvider } from '../../runtime/context';
import { registerMachines } from '../../runtime/machines';
import { stubRuntime } from '../../testing/stub-runtime';
import { UploadWatchlist } from './upload-watchlist';

// UploadWatchlist after a sign-out (a 401 on uploading): the page is loaded again, with a new runtime; the legal
// domain chosen is there again, the csv (personal data of the people listed) is not, and the form says so.

registerMachines(portalMachines);

const messages: Record<string, string> = catalogue;

/** A page load of the signed-in staff member: its own runtime, as after signing in again. */
function pageLoad() {
  const tenant = {
    tenant: 'demo',
    settings: { domain: 'demo', watchlistDomains: ['es-an', 'es-ri'], useWatch: false },
  };
  const runtime = stubRuntime({ locale: 'es', tenant, session: { userId: 'admin-1' } });
  return render(
    <IntlProvider locale="es" messages={messages}>
      <RuntimeProvider runtime={runtime}>
        <UploadWatchlist />
      </RuntimeProvider>
    </IntlProvider>,
  );
}

const csv = () =>
  new File(['dni;fecha_nacimiento\n99999990S;01/01/1980\n'], 'prohibidos.csv', { type: 'text/csv' });

afterEach(() => sessionStorage.clear());

describe('UploadWatchlist, signed in again', () => {
  it('keeps the legal domain, keeps no csv in the browser, and asks for the csv again in words', async () => {
    const first = pageLoad();
    expect(screen.queryByTestId('watchlist-choose-again')).toBeNull();
    fireEvent.change(screen.getByTestId('watchlist-domain'), { target: { value: 'es-ri' } });
    fireEvent.change(screen.getByTestId('watchlist-file'), { target: { files: [csv()] } });
    first.unmount();
    const stored = JSON.stringify({ ...sessionStorage });
    expect(stored).not.toContain('prohibidos.csv');
    expect(stored).not.toContain('99999990S');

    pageLoad();
    expect(screen.getByTestId('watchlist-domain')).toHaveValue('es-ri');
    expect(screen.getByTestId('watchlist-choose-again')).toHaveTextContent(
      messages['watchlist.file.chooseAgain'] as string,
    );
    // Chosen again, the words have done their work.
    fireEvent.change(screen.getByTestId('watchlist-file'), { target: { files: [csv()] } });
    await waitFor(() => expect(screen.queryByTestId('watchlist-choose-again')).toBeNull());
  });

  it('starts with the first domain and the usual hint when nothing was left behind', () => {
    pageLoad();
    expect(screen.getByTestId('watchlist-domain')).toHaveValue('es-an');
    expect(screen.queryByTestId('watchlist-choose-again')).toBeNull();
  });
});
