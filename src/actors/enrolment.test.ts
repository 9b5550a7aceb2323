import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { uploadErrorOf } from './enrolment';

// What the image upload machine hears of a failed upload: a picture refused for what it is carries its
// code to imageRefused; anything else is a failed upload to send again.
const refusal = (status: number, code: string, errors?: { field: string; code: string }[]) =>
  new ApiError({
    kind: 'http',
    method: 'PUT',
    path: '/internal/portrayals/p-1/obverse',
    status,
    problem: { status, title: 't', detail: 'd', code, ...(errors ? { errors } : {}) },
  });

describe('uploadErrorOf', () => {
  it.each([
    [
      refusal(422, 'image_too_many_pixels', [{ field: 'image', code: 'image_too_many_pixels' }]),
      'image_too_many_pixels',
    ],
    [refusal(422, 'image_unreadable', [{ field: 'image', code: 'image_unreadable' }]), 'image_unreadable'],
    // the body limit's refusal, and a wrong content type whose field error names the image's type
    [refusal(413, 'image_too_large'), 'image_too_large'],
    [
      refusal(415, 'unsupported_media_type', [{ field: 'image', code: 'image_wrong_type' }]),
      'image_wrong_type',
    ],
  ])('a refused picture is image_refused with its code (%#)', (error, code) => {
    expect(uploadErrorOf(error)).toEqual({ code: 'image_refused', refusal: code });
  });

  it('anything else is upload_failed', () => {
    expect(uploadErrorOf(refusal(409, 'image_not_expected'))).toEqual({ code: 'upload_failed' });
    expect(uploadErrorOf(new Error('offline'))).toEqual({ code: 'upload_failed' });
  });
});
