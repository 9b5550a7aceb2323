import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import type { ImageKind } from '../contract/api/onboarding';
import { BUSY_RETRIES, imageUploadMachine, type UploadImageInput } from './image-upload.machine';

const challenge = {
  challenge_id: 'c-1',
  actions: ['blink', 'smile', 'turn_left'],
  expiration: 60,
  expires_at: '2030-01-01T00:00:00Z',
};

function start(
  kind: ImageKind,
  upload: (input: UploadImageInput) => Promise<void>,
  challengeFails = 0,
  clock?: SimulatedClock,
) {
  const uploads = vi.fn(upload);
  const challenges = vi.fn(async () => {
    if (challengeFails-- > 0) throw new Error('500');
    return challenge;
  });
  const persist = vi.fn();
  const actor = createActor(
    imageUploadMachine.provide({
      actors: {
        uploadImage: fromPromise(({ input }) => uploads(input)),
        requestChallenge: fromPromise(challenges),
      },
      actions: { persist },
    }),
    { input: { kind, portrayalId: 'p-1' }, ...(clock ? { clock } : {}) },
  );
  actor.start();
  return { actor, uploads, challenges, persist };
}

describe('image upload machine', () => {
  it('sends the picture to the portrayal and ends with its kind', async () => {
    const { actor, uploads, persist } = start('obverse', async () => {});
    expect(actor.getSnapshot().value).toBe('capturing');
    expect(persist).toHaveBeenCalledOnce();
    actor.send({ type: 'image.captured', image: { ref: 'img-1' } });
    await waitFor(actor, (s) => s.status === 'done');
    expect(uploads).toHaveBeenCalledWith({
      portrayalId: 'p-1',
      kind: 'obverse',
      image: { ref: 'img-1' },
      challengeId: null,
    });
    expect(actor.getSnapshot().output).toEqual({ kind: 'obverse' });
  });

  it('keeps the picture after a failed upload (upload_failed) and re-sends it on upload.retry', async () => {
    let failures = 1;
    const { actor, uploads } = start('selfie', async () => {
      if (failures-- > 0) throw { code: 'upload_failed' };
    });
    actor.send({ type: 'image.captured', image: { ref: 'img-1' } });
    await waitFor(actor, (s) => s.matches('uploadFailed'));
    expect(actor.getSnapshot().getMeta()['imageUpload.uploadFailed']).toMatchObject({
      errorCode: 'upload_failed',
    });
    expect(actor.getSnapshot().context.image).toEqual({ ref: 'img-1' });
    actor.send({ type: 'upload.retry' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(uploads.mock.calls.map(([input]) => input.image.ref)).toEqual(['img-1', 'img-1']);
  });

  it.each(['image_too_many_pixels', 'image_unreadable', 'image_too_large'] as const)(
    'a picture the server refuses (%s) keeps its code and asks for another, not for the same one again',
    async (code) => {
      let refusals = 1;
      const { actor, uploads } = start('obverse', async () => {
        if (refusals-- > 0) throw { code: 'image_refused', refusal: code };
      });
      actor.send({ type: 'image.captured', image: { ref: 'img-1' } });
      await waitFor(actor, (s) => s.matches('imageRefused'));
      expect(actor.getSnapshot().getMeta()['imageUpload.imageRefused']).toMatchObject({
        errorCode: 'image_refused',
        uploadError: 'image_refused',
      });
      expect(actor.getSnapshot().context).toMatchObject({ refusal: code, image: null });
      expect(actor.getSnapshot().can({ type: 'upload.retry' })).toBe(false);
      actor.send({ type: 'image.captured', image: { ref: 'img-2' } });
      await waitFor(actor, (s) => s.status === 'done');
      expect(uploads.mock.calls.map(([input]) => input.image.ref)).toEqual(['img-1', 'img-2']);
    },
  );

  it('asks for the picture again when it is no longer available (image_not_available)', async () => {
    const { actor } = start('reverse', async () => {
      throw { code: 'image_not_available' };
    });
    actor.send({ type: 'image.captured', image: { ref: 'gone' } });
    await waitFor(actor, (s) => s.matches('imageNotAvailable'));
    expect(actor.getSnapshot().context.image).toBeNull();
    expect(actor.getSnapshot().can({ type: 'upload.retry' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'image.captured', image: { ref: 'again' } })).toBe(true);
  });

  it('sends the same picture again by itself after the Retry-After of a busy server (429 busy)', async () => {
    const clock = new SimulatedClock();
    let busy = 2;
    const { actor, uploads } = start(
      'selfie',
      async () => {
        if (busy-- > 0) throw { code: 'busy', retryAfter: 3 };
      },
      0,
      clock,
    );
    actor.send({ type: 'image.captured', image: { ref: 'img-1' } });
    await waitFor(actor, (s) => s.matches('busy'));
    expect(actor.getSnapshot().getMeta()['imageUpload.busy']).toMatchObject({ errorCode: 'busy' });
    expect(actor.getSnapshot().context.retryAfterMs).toBe(3000);
    clock.increment(2999);
    expect(actor.getSnapshot().matches('busy')).toBe(true);
    clock.increment(1);
    await waitFor(actor, (s) => s.matches('busy') && s.context.busyAnswers === 2);
    clock.increment(3000);
    await waitFor(actor, (s) => s.status === 'done');
    expect(uploads.mock.calls.map(([input]) => input.image.ref)).toEqual(['img-1', 'img-1', 'img-1']);
  });

  it('gives up waiting after a few busy answers: upload_failed, and the person sends it again', async () => {
    const clock = new SimulatedClock();
    const { actor, uploads } = start(
      'obverse',
      async () => {
        throw { code: 'busy' };
      },
      0,
      clock,
    );
    actor.send({ type: 'image.captured', image: { ref: 'img-1' } });
    for (let answer = 1; answer <= BUSY_RETRIES; answer++) {
      await waitFor(actor, (s) => s.matches('busy') && s.context.busyAnswers === answer);
      // No Retry-After named: two seconds.
      expect(actor.getSnapshot().context.retryAfterMs).toBe(2000);
      clock.increment(2000);
    }
    await waitFor(actor, (s) => s.matches('uploadFailed'));
    expect(uploads).toHaveBeenCalledTimes(BUSY_RETRIES + 1);
    expect(actor.getSnapshot().context.image).toEqual({ ref: 'img-1' });
  });

  it('the liveness proof first fetches its challenge (challenge_unavailable, retried) and answers it', async () => {
    const { actor, uploads, challenges } = start('lifeproof', async () => {}, 1);
    await waitFor(actor, (s) => s.matches('challengeUnavailable'));
    actor.send({ type: 'challenge.retry' });
    await waitFor(actor, (s) => s.matches('capturing'));
    expect(challenges).toHaveBeenCalledTimes(2);
    expect(challenges).toHaveBeenLastCalledWith(
      expect.objectContaining({ input: { length: 3, expiration: 60 } }),
    );
    expect(actor.getSnapshot().context.challenge).toEqual(challenge);
    actor.send({ type: 'image.captured', image: { ref: 'frames-1' } });
    await waitFor(actor, (s) => s.status === 'done');
    expect(uploads).toHaveBeenCalledWith(expect.objectContaining({ kind: 'lifeproof', challengeId: 'c-1' }));
  });
});
