// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ActorRefFrom, createActor, fromPromise, waitFor } from 'xstate';
import type { CreatedOnboarding, CreatedPortrayal } from '../../contract/api/onboarding';
import { enrolmentMachine } from '../../machines/enrolment.machine';
import { imageUploadMachine } from '../../machines/image-upload.machine';
import { fakeRuntime, SESSION, SETTINGS } from '../features/onboarding/testing/fake-runtime';
import { createEnrolmentRuntime } from './enrolment';

// What a reload (or signing in again) finds of a picture whose upload failed: the picture lived in the page's memory.

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

type Upload = ActorRefFrom<typeof imageUploadMachine>;

/** An enrolment left with the front of a passport whose upload failed, as this browser keeps it. */
async function keptWithFailedUpload() {
  const machine = enrolmentMachine.provide({
    actors: {
      createOnboarding: fromPromise(
        async (): Promise<CreatedOnboarding> => ({
          onboarding_id: 'o-1',
          identity_proofing: true,
          life_proofing: false,
          biometric_qr: true,
          supported_docs: ['passport'],
        }),
      ),
      acceptLegalTerms: fromPromise(async () => {}),
      fetchTerms: fromPromise(async () => '# Condiciones'),
      createPortrayal: fromPromise(
        async (): Promise<CreatedPortrayal> => ({ portrayal_id: 'p-1', life_proofing: false }),
      ),
      imageUpload: imageUploadMachine.provide({
        actors: {
          uploadImage: fromPromise(async (): Promise<void> => {
            throw { code: 'upload_failed' };
          }),
        },
      }),
    },
  });
  const actor = createActor(machine, {
    input: { settings: SETTINGS, registerMode: 'auto', claims: null, email: SESSION.email },
  }).start();
  actor.send({ type: 'onboarding.start' });
  await waitFor(actor, (s) => s.matches({ onboarding: { legalTerms: 'termsShown' } }));
  actor.send({ type: 'legalTerms.accept', termsAccepted: true, legitimacyConfirmed: false });
  await waitFor(actor, (s) => s.matches({ onboarding: 'choosingDocument' }));
  actor.send({ type: 'document.chosen', documentType: 'passport', documentCountry: null });
  await waitFor(actor, (s) => s.matches({ onboarding: { images: 'obverse' } }));
  actor.send({ type: 'image.captured', image: { ref: 'image-gone' } });
  await waitFor(actor.getSnapshot().children.imageUpload as Upload, (s) => s.matches('uploadFailed'));
  localStorage.setItem(
    `portal.enrolment:gambling:${SESSION.userId}`,
    JSON.stringify(actor.getPersistedSnapshot()),
  );
  actor.stop();
}

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('an enrolment restored with a failed upload', () => {
  it('asks for the picture again instead of offering to send one that is gone, without a call', async () => {
    await keptWithFailedUpload();
    vi.spyOn(navigator, 'userAgent', 'get').mockImplementation(() => PHONE_UA);
    const put = vi.fn(() => new Promise<never>(() => {}));
    const enrolment = createEnrolmentRuntime(fakeRuntime({ signedIn: true, api: { put } }));
    const actor = enrolment.actor();
    expect(actor?.getSnapshot().matches({ onboarding: { images: 'obverse' } })).toBe(true);
    const upload = actor?.getSnapshot().children.imageUpload as Upload;
    await waitFor(upload, (s) => s.matches('imageNotAvailable'));
    expect(put).not.toHaveBeenCalled();
  });
});
