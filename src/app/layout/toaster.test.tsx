// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { notificationsMachine } from '../../../machines/notifications.machine';
import { ApiError, generalNotice, problemFromBody } from '../../api/errors';
import { withoutIds } from '../../i18n/catalogue';
import en from '../../i18n/messages/en.json';
import es from '../../i18n/messages/es.json';
import eu from '../../i18n/messages/eu.json';
import type { Runtime } from '../../runtime/context';
import { RuntimeProvider } from '../../runtime/context';
import { Toaster } from './toaster';

// The notice the API client raises for a 409/422 code (spec §8) is never empty. A code with words shows them; a code
// that exists nowhere shows the server's detail (else title, else status text) inside the language's sentence, not a
// blank warning, the code or an id. The catalogue is given to react-intl as the app gives it (withoutIds: a missing
// id is an empty message).

const notifications = createActor(notificationsMachine).start();
afterEach(() => notifications.send({ type: 'errors.clear' }));

function renderToaster(locale: 'es' | 'en' | 'eu', messages: Record<string, string>) {
  const runtime = { notifications } as unknown as Runtime;
  return render(
    <IntlProvider
      locale={locale}
      messages={withoutIds(messages) as Record<string, string>}
      onError={() => {}}
    >
      <RuntimeProvider runtime={runtime}>
        <Toaster />
      </RuntimeProvider>
    </IntlProvider>,
  );
}

/** What the API client does with an error answer: the general handler's notice, sent to the notifications. */
function answer(status: number, body: unknown, statusText = '') {
  const error = new ApiError({
    kind: 'http',
    method: 'PUT',
    path: '/public/users/u-1',
    status,
    statusText,
    problem: problemFromBody(body, status),
    body,
  });
  const notice = generalNotice(error);
  if (!notice) throw new Error('expected a notice');
  act(() => notifications.send({ type: 'notify', ...notice }));
}

describe('Toaster: the notice of a server code', () => {
  it('shows the words of a code the catalogue has (PortalAccounts: complete onboarding, 409)', () => {
    renderToaster('es', es);
    answer(409, {
      status: 409,
      title: 'Conflict',
      detail: 'This onboarding is not pending.',
      code: 'onboarding_not_pending',
    });
    expect(screen.getByTestId('notice')).toHaveTextContent(es['common.errors.onboarding_not_pending']);
  });

  it('shows the server’s detail in the person’s language for a code that exists nowhere', () => {
    renderToaster('es', es);
    answer(409, {
      status: 409,
      title: 'Conflict',
      detail: 'The frobnicator is locked.',
      code: 'zz_code_that_exists_nowhere',
    });
    const notice = screen.getByTestId('notice');
    expect(notice).toHaveTextContent(
      'No se ha podido completar. El servidor indica: «The frobnicator is locked.»',
    );
    expect(notice.textContent).not.toContain('zz_code_that_exists_nowhere');
    expect(notice.textContent).not.toContain('common.errors');
  });

  it('says a refusal without a code (its title, detail or status text) inside the person’s sentence', () => {
    renderToaster('es', es);
    answer(403, { status: 403, title: 'Forbidden', detail: '' });
    expect(screen.getByTestId('notice').querySelector('p')?.textContent).toBe(
      'No se ha podido completar. El servidor indica: «Forbidden»',
    );
  });

  it('says a 403 with a known code in the person’s words, not the server’s English detail', () => {
    renderToaster('es', es);
    answer(403, {
      status: 403,
      title: 'Forbidden',
      detail: 'You do not have the permission.',
      code: 'forbidden',
    });
    expect(screen.getByTestId('notice').querySelector('p')?.textContent).toBe(es['common.errors.forbidden']);
  });

  it('falls back to the title, then the status text, then the unknown problem', () => {
    renderToaster('en', en);
    answer(422, { title: 'Unprocessable Content', code: 'zz_other_unknown_code' });
    answer(409, { code: 'zz_third_unknown_code' }, 'Conflict');
    answer(409, { code: 'zz_fourth_unknown_code' });
    const texts = screen.getAllByTestId('notice').map((n) => n.querySelector('p')?.textContent);
    expect(texts).toEqual([
      'This could not be done. The server says: “Unprocessable Content”',
      'This could not be done. The server says: “Conflict”',
      en['common.errors.unknown'],
    ]);
  });
});

describe('Toaster: the reference of an unexpected error', () => {
  it('shows the request id under a server fault, in the person’s language', () => {
    for (const [locale, messages, words] of [
      ['es', es, 'Referencia: req-500'],
      ['en', en, 'Reference: req-500'],
      ['eu', eu, 'Erreferentzia: req-500'],
    ] as const) {
      const view = renderToaster(locale, messages);
      answer(500, { status: 500, title: 'Internal Server Error', request_id: 'req-500' });
      expect(screen.getByTestId('notice')).toHaveTextContent(messages['common.http.serverError']);
      expect(screen.getByTestId('notice-reference')).toHaveTextContent(words);
      act(() => notifications.send({ type: 'errors.clear' }));
      view.unmount();
    }
  });

  it('shows it under a code without words, not under a code the portal explains', () => {
    renderToaster('en', en);
    answer(409, {
      detail: 'The frobnicator is locked.',
      code: 'zz_code_that_exists_nowhere',
      request_id: 'r-1',
    });
    answer(409, { detail: 'Not pending.', code: 'onboarding_not_pending', request_id: 'r-2' });
    const [unknown, known] = screen.getAllByTestId('notice');
    expect(unknown).toHaveTextContent('Reference: r-1');
    expect(known).toHaveTextContent(en['common.errors.onboarding_not_pending']);
    expect(known?.textContent).not.toContain('r-2');
  });
});
