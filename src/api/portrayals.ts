import type {
  Challenge,
  CreatedPortrayal,
  DocumentChoice,
  PortrayalResult,
} from '../../contract/api/onboarding.ts';
import {
  challenge,
  createdPortrayal,
  portrayalResult,
  readAnswer,
  uploadedImage,
  uploadedLifeproof,
} from './answers.ts';
import type { ApiClient } from './client.ts';
import { isApiError } from './errors.ts';

// Spec §7 Portrayals: create, images (obverse, reverse, selfie; lifeproof as multipart), the result that is
// polled until it is no longer 404, and the liveness challenges.

/**
 * A 429 busy to an upload is the upload's to handle (it sends the picture again after the Retry-After): no
 * general notice.
 */
const BUSY_IS_HANDLED = { 429: () => {} };

export function createPortrayal(
  api: ApiClient,
  body: {
    onboarding_id: string;
    portrayal_type: 'document' | 'selfie';
    document_type: DocumentChoice | null;
    document_country: string | null;
  },
): Promise<CreatedPortrayal> {
  return api.post('/internal/portrayals', { json: body, schema: createdPortrayal });
}

/** A stand-alone selfie portrayal of the signed-in person (spec §7 POST /internal/portrayals with process). */
export function createSelfiePortrayal(api: ApiClient, process: string): Promise<CreatedPortrayal> {
  return api.post('/internal/portrayals', {
    json: { portrayal_type: 'selfie', process },
    schema: createdPortrayal,
  });
}

export async function uploadPortrayalImage(
  api: ApiClient,
  portrayalId: string,
  kind: 'obverse' | 'reverse' | 'selfie',
  image: Blob,
  onProgress?: (fraction: number) => void,
): Promise<void> {
  await api.put(`/internal/portrayals/${encodeURIComponent(portrayalId)}/${kind}`, {
    body: image,
    headers: { 'content-type': image.type === 'image/png' ? 'image/png' : 'image/jpeg' },
    schema: uploadedImage,
    handlers: BUSY_IS_HANDLED,
    ...(onProgress ? { onUploadProgress: onProgress } : {}),
  });
}

/** The liveness proof (multipart): the frames of the challenge and the challenge they answer. */
export async function uploadLifeproof(
  api: ApiClient,
  portrayalId: string,
  proof: { frames: Blob[]; challengeId: string | null },
  onProgress?: (fraction: number) => void,
): Promise<void> {
  const form = new FormData();
  proof.frames.forEach((frame, index) => {
    form.append('frames', frame, `frame-${index}.jpg`);
  });
  if (proof.challengeId) form.append('challenge_id', proof.challengeId);
  form.append('life_proofing', 'true');
  await api.put(`/internal/portrayals/${encodeURIComponent(portrayalId)}/lifeproof`, {
    body: form,
    schema: uploadedLifeproof,
    handlers: BUSY_IS_HANDLED,
    ...(onProgress ? { onUploadProgress: onProgress } : {}),
  });
}

export type PortrayalPoll =
  | { status: 'pending' }
  | { status: 'done'; result: PortrayalResult }
  | { status: 'error'; code: string };

/**
 * One look at the result: 404 is 'not yet' (silently), a 422 names the portrayal error (spec §8). `signal` ends a
 * look the poll no longer waits for (it gave up at its timeout), so that no loading indicator outlives it.
 */
export async function fetchPortrayalResult(
  api: ApiClient,
  portrayalId: string,
  signal?: AbortSignal,
): Promise<PortrayalPoll> {
  try {
    const result = await api.get(`/internal/portrayals/${encodeURIComponent(portrayalId)}`, {
      schema: portrayalResult,
      silent: true,
      ...(signal ? { signal } : {}),
    });
    return { status: 'done', result };
  } catch (error) {
    if (isApiError(error) && error.status === 404) return { status: 'pending' };
    if (isApiError(error) && error.status === 422) {
      const problem = await readAnswer('portrayalResultProblem', error.body);
      if (problem) return { status: 'error', code: problem.reason };
    }
    throw error;
  }
}

export function requestChallenge(
  api: ApiClient,
  body: { length: number; expiration: number },
): Promise<Challenge> {
  return api.post('/internal/challenges', { json: body, schema: challenge });
}
