import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import type { ImageKind } from '../../contract/api/onboarding';
import { type ImageUploadInput, imageUploadMachine } from '../../machines/image-upload.machine';
import { codesInMeta, coverMachine, type ModelSpec } from './harness';

const done = (id: string, output?: unknown): EventObject =>
  ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const failed = (id: string, error: unknown): EventObject =>
  ({ type: `xstate.error.actor.${id}`, error }) as EventObject;

// Spec §5 upload messages, the server's 429 busy, a picture the server refuses for what it is and the
// liveness challenge of spec §7, each a state with its code in meta.
const UPLOAD_ERRORS = [
  'upload_failed',
  'image_not_available',
  'busy',
  'image_refused',
  'challenge_unavailable',
];

function spec(kind: ImageKind): ModelSpec<typeof imageUploadMachine> {
  const input: ImageUploadInput = { kind, portrayalId: 'p-1' };
  return {
    machine: imageUploadMachine,
    input,
    events: () => [
      { type: 'image.captured', image: { ref: 'img-1' } },
      { type: 'upload.retry' },
      { type: 'challenge.retry' },
      done('uploadImage'),
      failed('uploadImage', { code: 'upload_failed' }),
      failed('uploadImage', { code: 'image_refused', refusal: 'image_unreadable' }),
      failed('uploadImage', { code: 'image_not_available' }),
      failed('uploadImage', { code: 'busy', retryAfter: 3 }),
      { type: 'xstate.after.busyRetry.imageUpload.busy' },
      done('requestChallenge', {
        challenge_id: 'c-1',
        actions: ['blink', 'smile', 'turn_left'],
        expiration: 60,
        expires_at: '2030-01-01T00:00:00Z',
      }),
      failed('requestChallenge', new Error('500')),
    ],
    provide: (control) =>
      imageUploadMachine.provide({
        actors: {
          uploadImage: control.actor('uploadImage'),
          requestChallenge: control.actor('requestChallenge'),
        },
      }),
    errorCodes: {
      expected:
        kind === 'lifeproof' ? UPLOAD_ERRORS : UPLOAD_ERRORS.filter((c) => c !== 'challenge_unavailable'),
      read: codesInMeta('errorCode'),
    },
  };
}

describe('image upload machine (generated paths)', () => {
  it('covers every transition and every upload error, for a document side and the liveness proof', async () => {
    const report = await coverMachine([spec('obverse'), spec('lifeproof')]);
    expect(report.missing).toEqual([]);
    expect(report.errorCodes?.missing).toEqual([]);
  });
});
