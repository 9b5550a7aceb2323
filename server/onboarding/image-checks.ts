// The one check of every image that enters the server: the enrolment's pictures (PUT
// /internal/portrayals/{id}/obverse|reverse|selfie and the liveness proof's frames), a single or delegated
// registration's image (POST /public/singles) and each picture of a bulk import (POST /public/singles/bulk).
// Each of them used to look at something different (the enrolment decoded the picture, the registrations only
// read its first bytes, so a 30000×30000 PNG or a truncated one became a person's selfie); now all of them go
// through the engine's checkImage (images.ts for the basic and reference engines): type, byte bounds, header,
// pixel limit, decoding and sharpness, with the same codes and the same words whichever way the image came in.
// Decoding is heavy work: it runs in the process's bounded queue (heavy-work.ts), and the server's engine runs in
// its worker thread (engine-thread.ts), so a flood of pictures neither stalls other requests nor fills the memory.

import { DetailedProblem } from '../http/validation';
import type { BiometricEngine } from './engine';
import type { HeavyWork } from './heavy-work';
import { checkBytes, type ImageBounds, type ImageCheck, type ImageRefusalCode } from './images';

/** The HTTP status of each refusal when the request itself is refused for it. */
export const REFUSAL_STATUS: Record<ImageRefusalCode, number> = {
  image_wrong_type: 415,
  image_too_small: 422,
  image_too_large: 413,
  delegated_image_too_small: 422,
  delegated_image_too_large: 413,
  image_too_many_pixels: 422,
  image_unreadable: 422,
};

/** A refused image as a problem: the code, the check's words, and the field it concerns. */
export function imageRefusal(code: ImageRefusalCode, detail: string, field = 'image'): DetailedProblem {
  return new DetailedProblem(REFUSAL_STATUS[code], detail, code, { errors: [{ field, code }] });
}

export interface ImageChecks {
  /**
   * Every check of one image held to the byte bounds of the way it came in (registration by default); the
   * decoding waits for its turn in the heavy-work queue.
   */
  check(bytes: Uint8Array, bounds?: ImageBounds): Promise<ImageCheck>;
  /** The queue the decoding runs in: an upload route admits its caller there before reading the body. */
  readonly work: HeavyWork;
}

export function imageChecks(engine: () => Promise<BiometricEngine>, work: HeavyWork): ImageChecks {
  return {
    work,
    async check(bytes, bounds = 'registration') {
      // What needs no decoding is answered here: a file of the wrong type or size never travels to the engine.
      const refused = checkBytes(bytes, bounds);
      if (refused) return refused;
      const loaded = await engine();
      return work.run(() => loaded.checkImage(bytes, bounds));
    },
  };
}
