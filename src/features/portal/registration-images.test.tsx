// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { zipSync } from 'fflate';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import { portalMachines } from '../../app/machines/portal';
import catalogue from '../../i18n/messages/es.json';
import { type Runtime, RuntimeProvider } from '../../runtime/context';
import { registerMachines } from '../../runtime/machines';
import { stubRuntime } from '../../testing/stub-runtime';
import { AddUsersFromPhotos } from './bulk-registration';
import { SingleRegistration } from './single-registration';

// The area's machines with their real actors over the fake API client, as src/app/routes.ts registers them.
registerMachines(portalMachines);

// The server refuses an image it cannot decode (image_unreadable) or one of too many pixels
// (image_too_many_pixels) the same way on every way in (server/onboarding/image-checks.ts): SingleRegistration
// shows the catalogue's words for the code beside the image, and AddUsersFromPhotos in the row's reason, never a
// generic "upload failed".

const messages: Record<string, string> = catalogue;

/** A runtime whose API the test decides: GETs answer `get`, POSTs `post`. */
function runtimeWith(api: {
  get: (path: string) => Promise<unknown>;
  post: (path: string, options: unknown) => Promise<unknown>;
}) {
  return stubRuntime({
    locale: 'es',
    tenant: { tenant: 'demo', settings: { domain: 'demo', acsIdSchema: 'string64', biometricQR: false } },
    // Signed in: the form keeps its draft per person (src/actors/form-draft.ts).
    session: { userId: 'staff-1' },
    api: { get: api.get, post: api.post },
  });
}

const renderWith = (runtime: Runtime, screenElement: React.ReactElement) =>
  render(
    <IntlProvider locale="es" messages={messages}>
      <RuntimeProvider runtime={runtime}>{screenElement}</RuntimeProvider>
    </IntlProvider>,
  );

const refusal = (code: string, path: string) =>
  new ApiError({
    kind: 'http',
    method: 'POST',
    path,
    status: 422,
    problem: {
      status: 422,
      title: 'Unprocessable Content',
      detail: 'refused',
      code,
      errors: [{ field: 'image', code }],
    },
  });

const free = (path: string) =>
  Promise.reject(new ApiError({ kind: 'http', method: 'GET', path, status: 404 }));

afterEach(() => vi.clearAllMocks());

describe('SingleRegistration', () => {
  it.each([
    ['image_unreadable', 'No se puede leer la imagen: está dañada o incompleta.'],
    ['image_too_many_pixels', 'La imagen tiene demasiados píxeles (máximo 40 millones).'],
  ])('shows %s beside the image, in the catalogue’s words', async (code, words) => {
    const post = vi.fn((path: string) => Promise.reject(refusal(code, path)));
    renderWith(runtimeWith({ get: free, post }), <SingleRegistration />);
    fireEvent.click(screen.getByRole('radio', { name: messages['singles.mode.image'] }));
    fireEvent.change(screen.getByLabelText(messages['singles.username'] as string), {
      target: { value: 'ane.argazki' },
    });
    fireEvent.change(screen.getByLabelText(messages['singles.email'] as string), {
      target: { value: 'ane@example.test' },
    });
    fireEvent.change(screen.getByLabelText(messages['singles.acsId'] as string), {
      target: { value: 'ACS-1' },
    });
    const file = new File([new Uint8Array(6000).fill(1)], 'ane.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText(messages['singles.image'] as string), {
      target: { files: [file] },
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: messages['singles.submit'] })));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/public/singles', expect.anything()));
    const image = screen.getByLabelText(messages['singles.image'] as string);
    await waitFor(() => expect(image).toHaveAttribute('aria-invalid', 'true'));
    expect(document.getElementById('single-image-error')).toHaveTextContent(words);
    expect(screen.queryByText(messages['singles.failed'] as string)).toBeNull();
  });
});

describe('SingleRegistration, a refusal it has no words for, and a sign-out', () => {
  /** Image mode filled in, the photo chosen. */
  function fill() {
    fireEvent.click(screen.getByRole('radio', { name: messages['singles.mode.image'] }));
    fireEvent.change(screen.getByLabelText(messages['singles.username'] as string), {
      target: { value: 'ane.argazki' },
    });
    fireEvent.change(screen.getByLabelText(messages['singles.email'] as string), {
      target: { value: 'ane@example.test' },
    });
    fireEvent.change(screen.getByLabelText(messages['singles.acsId'] as string), {
      target: { value: 'ACS-1' },
    });
    const file = new File([new Uint8Array(6000).fill(1)], 'ane.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText(messages['singles.image'] as string), {
      target: { files: [file] },
    });
  }

  afterEach(() => sessionStorage.clear());

  it('says what the server said for a code that exists nowhere, in the sentence of the person’s language', async () => {
    const post = vi.fn((path: string) =>
      Promise.reject(
        new ApiError({
          kind: 'http',
          method: 'POST',
          path,
          status: 409,
          problem: {
            status: 409,
            title: 'Conflict',
            detail: 'Nadie conoce este código',
            code: 'no_such_code',
          },
        }),
      ),
    );
    renderWith(runtimeWith({ get: free, post }), <SingleRegistration />);
    fill();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: messages['singles.submit'] })));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'No se ha podido completar. El servidor indica: «Nadie conoce este código»',
    );
    expect(alert).not.toHaveTextContent('no_such_code');
  });

  it('keeps what was typed for the next visit of the same person, and asks for the photo again', () => {
    const runtime = runtimeWith({ get: free, post: vi.fn() });
    const first = renderWith(runtime, <SingleRegistration />);
    fill();
    first.unmount();
    renderWith(runtime, <SingleRegistration />);
    expect(screen.getByLabelText(messages['singles.username'] as string)).toHaveValue('ane.argazki');
    expect(screen.getByLabelText(messages['singles.email'] as string)).toHaveValue('ane@example.test');
    expect(screen.getByLabelText(messages['singles.acsId'] as string)).toHaveValue('ACS-1');
    // The photo of a face is never stored: the form says so, and asks for it again.
    expect(JSON.stringify(sessionStorage)).not.toContain('ane.png');
    expect(screen.getByTestId('single-image-choose-again')).toHaveTextContent(
      messages['singles.imageChooseAgain'] as string,
    );
  });
});

describe('SingleRegistration checks as the person types', () => {
  it('says a check that could not be made, instead of a silence that reads as free', async () => {
    const get = vi.fn((path: string) =>
      path === '/internal/accounts'
        ? Promise.reject(new ApiError({ kind: 'network', method: 'GET', path }))
        : free(path),
    );
    renderWith(runtimeWith({ get, post: vi.fn() }), <SingleRegistration />);
    const email = screen.getByLabelText(messages['singles.email'] as string);
    fireEvent.change(email, { target: { value: 'ane@example.test' } });
    await waitFor(() => expect(get).toHaveBeenCalledWith('/internal/accounts', expect.anything()));
    await waitFor(() =>
      expect(email.parentElement).toHaveTextContent(messages['singles.checkFailed'] as string),
    );
    expect(email).not.toHaveAttribute('aria-invalid');
  });
});

describe('AddUsersFromPhotos, after a sign-out', () => {
  afterEach(() => sessionStorage.clear());

  it('keeps no file in the browser, and says in words to choose the files again', async () => {
    const runtime = runtimeWith({ get: free, post: vi.fn(() => new Promise<never>(() => {})) });
    const first = renderWith(runtime, <AddUsersFromPhotos />);
    expect(screen.queryByTestId('bulk-choose-again')).toBeNull();
    const metadata = new File(['email,first_name,last_name,acs_id,image\r\n'], 'people.csv', {
      type: 'text/csv',
    });
    const media = new File([new Uint8Array(100)], 'photos.zip', { type: 'application/zip' });
    fireEvent.change(screen.getByLabelText(messages['bulk.metadata'] as string), {
      target: { files: [metadata] },
    });
    fireEvent.change(screen.getByLabelText(messages['bulk.media'] as string), { target: { files: [media] } });
    first.unmount();
    const stored = JSON.stringify({ ...sessionStorage });
    expect(stored).not.toContain('photos.zip');
    expect(stored).not.toContain('people.csv');
    renderWith(runtime, <AddUsersFromPhotos />);
    expect(await screen.findByTestId('bulk-choose-again')).toHaveTextContent(
      messages['bulk.chooseAgain'] as string,
    );
    // Chosen again, the words have done their work.
    fireEvent.change(screen.getByLabelText(messages['bulk.metadata'] as string), {
      target: { files: [metadata] },
    });
    fireEvent.change(screen.getByLabelText(messages['bulk.media'] as string), { target: { files: [media] } });
    await waitFor(() => expect(screen.queryByTestId('bulk-choose-again')).toBeNull());
  });
});

describe('AddUsersFromPhotos', () => {
  it('keeps the picker just used, and the keyboard’s focus on it, while the choice is read', async () => {
    const never = () => new Promise<never>(() => {});
    renderWith(runtimeWith({ get: never, post: never }), <AddUsersFromPhotos />);
    const metadata = screen.getByLabelText(messages['bulk.metadata'] as string);
    const media = screen.getByLabelText(messages['bulk.media'] as string);
    fireEvent.change(metadata, {
      target: { files: [new File(['email,first_name,last_name,acs_id,image\r\n'], 'people.csv')] },
    });
    media.focus();
    fireEvent.change(media, { target: { files: [new File(['not a zip'], 'photos.zip')] } });
    // Read in the background (the spinner says so); a new choice would start over, so nothing is disabled.
    expect(screen.getByText(messages['bulk.checking'] as string)).toBeInTheDocument();
    expect(media).toBeEnabled();
    expect(metadata).toBeEnabled();
    expect(media).toHaveFocus();
    await screen.findByTestId('bulk-invalid', {}, { timeout: 10_000 });
  });

  it('names the reason of each refused picture in the catalogue’s words', async () => {
    const picture = new Uint8Array(10_000).fill(1);
    picture.set([0xff, 0xd8, 0xff, 0xe0]);
    const media = new File(
      [zipSync({ 'a.jpg': picture, 'b.jpg': picture }) as Uint8Array<ArrayBuffer>],
      'photos.zip',
      {
        type: 'application/zip',
      },
    );
    const metadata = new File(
      [
        'email,first_name,last_name,acs_id,image\r\na@example.test,Ane,A,ACS-A,a.jpg\r\nb@example.test,Jon,B,ACS-B,b.jpg\r\n',
      ],
      'people.csv',
      { type: 'text/csv' },
    );
    const rows = [
      {
        row: 1,
        email: 'a@example.test',
        outcome: 'rejected',
        reason: 'image_unreadable',
        field: 'image',
        code: 1,
        user_id: null,
      },
      {
        row: 2,
        email: 'b@example.test',
        outcome: 'rejected',
        reason: 'image_too_many_pixels',
        field: 'image',
        code: 1,
        user_id: null,
      },
    ];
    const job = { job_id: 'job-1', status: 'done', total: 2, done: 2, accepted: 0, rejected: 2, rows };
    const post = vi.fn(async () => ({ job_id: 'job-1', total: 2 }));
    const get = vi.fn(async () => job);
    renderWith(runtimeWith({ get, post }), <AddUsersFromPhotos />);
    fireEvent.change(screen.getByLabelText(messages['bulk.metadata'] as string), {
      target: { files: [metadata] },
    });
    fireEvent.change(screen.getByLabelText(messages['bulk.media'] as string), { target: { files: [media] } });
    const upload = await screen.findByRole('button', { name: messages['bulk.upload'] }, { timeout: 10_000 });
    await act(async () => fireEvent.click(upload));
    const results = await screen.findByTestId('bulk-results', {}, { timeout: 10_000 });
    expect(results).toHaveTextContent(messages['common.errors.image_unreadable'] as string);
    expect(results).toHaveTextContent(messages['common.errors.image_too_many_pixels'] as string);
    expect(screen.getByTestId('bulk-row-1')).toHaveTextContent('No se puede leer la imagen');
  });

  // The upload's 413s each have a code of their own (metadata_too_large, media_too_large); the machine's hasCode
  // payload_too_large takes every 413, so all of them are "too large to upload together", not "the server did not
  // accept the files".
  it.each(['metadata_too_large', 'media_too_large', 'payload_too_large'])(
    'says the files are too large when the upload is refused with %s',
    async (code) => {
      const metadata = new File(
        ['email,first_name,last_name,acs_id,image\r\na@example.test,Ane,A,ACS-A,a.jpg\r\n'],
        'people.csv',
        {
          type: 'text/csv',
        },
      );
      const picture = new Uint8Array(10_000).fill(1);
      picture.set([0xff, 0xd8, 0xff, 0xe0]);
      const media = new File([zipSync({ 'a.jpg': picture }) as Uint8Array<ArrayBuffer>], 'photos.zip', {
        type: 'application/zip',
      });
      const post = vi.fn((path: string) =>
        Promise.reject(
          new ApiError({
            kind: 'http',
            method: 'POST',
            path,
            status: 413,
            problem: { status: 413, title: 'Content Too Large', detail: 'too large', code },
          }),
        ),
      );
      renderWith(runtimeWith({ get: free, post }), <AddUsersFromPhotos />);
      fireEvent.change(screen.getByLabelText(messages['bulk.metadata'] as string), {
        target: { files: [metadata] },
      });
      fireEvent.change(screen.getByLabelText(messages['bulk.media'] as string), {
        target: { files: [media] },
      });
      const upload = await screen.findByRole(
        'button',
        { name: messages['bulk.upload'] },
        { timeout: 10_000 },
      );
      await act(async () => fireEvent.click(upload));
      const tooLarge = (messages['bulk.problem.payload_too_large'] as string).split('{')[0] as string;
      await waitFor(() => expect(document.body).toHaveTextContent(tooLarge.trim()));
      expect(document.body).not.toHaveTextContent(messages['bulk.problem.unknown'] as string);
    },
  );
});
