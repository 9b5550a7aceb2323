// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { imageUploadMachine, type UploadImageInput } from '../../../machines/image-upload.machine';
import { withoutIds } from '../../i18n/catalogue';
import eu from '../../i18n/messages/eu.json';
import { ImageRefused } from './capture-screens';

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
