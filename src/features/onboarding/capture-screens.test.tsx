// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor as waitForDom } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, fromPromise, waitFor } from 'xstate';
import { imageUploadMachine, type UploadImageInput } from '../../../machines/image-upload.machine';
import { withoutIds } from '../../i18n/catalogue';
import es from '../../i18n/messages/es.json';
import eu from '../../i18n/messages/eu.json';
import { RuntimeProvider } from '../../runtime/context';
import { DocumentScan, ImageRefused } from './capture-screens';
import { fakeRuntime, storeEnrolment } from './testing/fake-runtime';

// A picture the server refuses for what it is (too many pixels, unreadable) shows the words of its code on the
// capture step, not the generic "the photo could not be sent, send it again".

async function refusedWith(code: string) {
  const upload = createActor(
    imageUploadMachine.provide({
      actors: {
        uploadImage: fromPromise<void, UploadImageInput>(async () => {
          throw { code: 'image_refused', refusal: code };
        }),
      },
      actions: { persist: () => {} },
    }),
    { input: { kind: 'obverse', portrayalId: 'p-1' } },
  ).start();
  upload.send({ type: 'image.captured', image: { ref: 'img-1' } });
  await waitFor(upload, (s) => s.matches('imageRefused'));
  return upload;
}

describe('ImageRefused', () => {
  it.each(['image_too_many_pixels', 'image_unreadable'] as const)(
    'shows the words of %s and asks for another photo',
    async (code) => {
      const upload = await refusedWith(code);
      render(
        <IntlProvider locale="eu" messages={withoutIds(eu) as Record<string, string>}>
          <ImageRefused upload={upload} />
        </IntlProvider>,
      );
      const alert = screen.getByTestId('image-refused');
      expect(alert).toHaveAttribute('data-code', code);
      expect(alert).toHaveTextContent(eu[`common.errors.${code}`]);
      expect(alert).toHaveTextContent(eu['upload.refusedHint']);
      expect(alert).not.toHaveTextContent(eu['upload.failed']);
    },
  );
});

describe('DocumentScan, the result that did not come in time', () => {
  afterEach(() => localStorage.clear());

  it('asks for the result of the same pictures again, and still offers to take them again', async () => {
    storeEnrolment(
      { onboarding: { scanFailed: 'timeout' } },
      { identityPortrayalId: 'p-1', documentType: 'passport', identityProofing: true },
    );
    const get = vi.fn((_path: string) => new Promise<never>(() => {}));
    const messages: Record<string, string> = es;
    render(
      <IntlProvider locale="es" messages={messages}>
        <RuntimeProvider runtime={fakeRuntime({ signedIn: true, api: { get } })}>
          <Router hook={memoryLocation({ path: '/document-scan' }).hook}>
            <DocumentScan />
          </Router>
        </RuntimeProvider>
      </IntlProvider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(messages['scanFailure.undefined.hint'] ?? 'missing');
    expect(screen.getByTestId('scan-retry')).toHaveTextContent(messages['scanFailure.retakePictures'] ?? '-');
    fireEvent.click(screen.getByTestId('result-retry'));
    await waitForDom(() => expect(get).toHaveBeenCalledWith('/internal/portrayals/p-1', expect.anything()));
    expect(screen.queryByTestId('scan-failure')).toBeNull();
  });
});
