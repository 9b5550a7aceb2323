// Spec §7 Portrayals: PUT /internal/portrayals/{id}/obverse|reverse|selfie (one JPEG or PNG as the body) and
// /lifeproof (multipart: still frames, videos, the life_proofing data and the challenge they answer). Every
// image is checked (type by its bytes, size bounds of spec §5/§9, pixel limit, decoding, sharpness) before it is
// stored, by the check every way in shares (../image-checks.ts).
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ImageKind } from '../../../contract/api/onboarding';
import { jsonProblem } from '../../../contract/api/text';
import type { AuthEnv } from '../../auth/verify';
import { HttpProblem } from '../../http/problem';
import { DetailedProblem, isUuid, validationProblem } from '../../http/validation';
import { admitHeavy } from '../heavy-work';
import { type ImageChecks, imageRefusal } from '../image-checks';
import { IMAGE_MAX_BYTES, type ImageCheck } from '../images';
import { computeResultOnce, requiredImagesIn } from '../portrayal-result';
import { assertOpen, type OnboardingRuntime, ownerOf, ownPortrayal } from '../runtime';
import {
  findOwnChallenge,
  findOwnPortrayal,
  imagesOf,
  type LivenessRecord,
  replaceImages,
  type StoredImage,
} from '../store/portrayals';

const LIFEPROOF_MAX_BYTES = 25 * 1024 * 1024;

/**
 * Once an upload completes the images, the engine starts on them at once, after the answer: the portal's
 * poll then finds the result computed (or joins the computation still running).
 */
function startResult(rt: OnboardingRuntime, c: Parameters<typeof ownerOf>[0], portrayalId: string): void {
  const owner = ownerOf(c);
  const judged = (async () => {
    const portrayal = await findOwnPortrayal(rt.db, owner, portrayalId);
    if (!portrayal) return;
    const images = await imagesOf(rt.db, owner.tenant, portrayalId);
    if (requiredImagesIn(portrayal, images)) await computeResultOnce(rt, owner.tenant, portrayal, images);
  })().catch((failure) =>
    rt.logger.log('warn', 'portrayal result not computed after upload', {
      portrayal: portrayalId,
      err: failure instanceof Error ? failure.message : String(failure),
    }),
  );
  // Stopping the server waits for it: the person was answered that the picture is taken, and the poll expects a result.
  rt.background.track(judged);
}

/**
 * The stored liveness proof judged again against a selfie sent after it (an API client's order; the portal sends
 * the proof alone): only the person is judged again, the movements were judged when the proof came. A failing
 * verdict to store, or undefined to keep the passing one (an engine error changes nothing).
 */
async function proofAgainstSelfie(
  rt: OnboardingRuntime,
  tenant: string,
  portrayalId: string,
  selfie: StoredImage,
): Promise<LivenessRecord | undefined> {
  const frames = (await imagesOf(rt.db, tenant, portrayalId)).filter(
    (row) => row.kind === 'lifeproof' && row.content_type.startsWith('image/'),
  );
  if (frames.length === 0) return undefined;
  const engine = await rt.engine();
  const verdict = await rt.heavy
    .run(() =>
      rt.judgement('liveness', () =>
        engine.checkLiveness({
          frames: frames.map((row) => ({
            kind: 'lifeproof',
            bytes: row.bytes,
            sharpness: { score: row.sharpness, blurred: row.blurred },
          })),
          videos: 0,
          challenge: null,
          submittedAt: rt.now(),
          selfie: {
            kind: 'selfie',
            bytes: selfie.bytes,
            sharpness: { score: selfie.sharpness, blurred: selfie.blurred },
          },
        }),
      ),
    )
    .catch(() => undefined);
  return verdict?.result === 'failing'
    ? // The proof's data and challenge stay as they were (undefined and null keep the stored ones).
      {
        livenessResult: 'failing',
        livenessDetail: verdict.detail,
        livenessData: undefined,
        challengeId: null,
      }
    : undefined;
}

// Refuses an oversized body before reading it.
function tooLarge(maxBytes: number) {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw imageRefusal('image_too_large', `The body is larger than ${maxBytes} bytes.`);
    },
  });
}

function isVideo(bytes: Uint8Array): boolean {
  const webm = bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3;
  const mp4 = String.fromCharCode(...bytes.subarray(4, 8)) === 'ftyp';
  return webm || mp4;
}

interface Proof {
  /** Still frames (checked like any image) and videos (stored, not decoded), in the order sent. */
  frames: StoredImage[];
  videos: number;
  /** The life_proofing field as sent (JSON when it parses). */
  livenessData: unknown;
  challengeId: string | null;
}

/** The parts of a multipart liveness proof; a still frame the image checks refuse is refused with its field. */
async function readProof(
  form: Record<string, string | File | (string | File)[]>,
  images: ImageChecks,
): Promise<Proof> {
  const proof: Proof = { frames: [], videos: 0, livenessData: undefined, challengeId: null };
  const { frames } = proof;
  for (const [name, value] of Object.entries(form)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string') {
        if (name === 'life_proofing') {
          try {
            proof.livenessData = JSON.parse(item);
          } catch {
            proof.livenessData = item;
          }
          // Stored as JSON: within the limits of free-form JSON, and no NUL (PostgreSQL refuses it).
          const why = jsonProblem(proof.livenessData);
          if (why) {
            throw validationProblem([
              { field: 'life_proofing', code: why === 'control_characters' ? 'wrong_format' : 'too_long' },
            ]);
          }
        } else if (name === 'challenge' || name === 'challenge_id') {
          proof.challengeId = item;
        }
        continue;
      }
      const bytes = new Uint8Array(await item.arrayBuffer());
      if (isVideo(bytes)) {
        proof.videos++;
        frames.push({
          seq: frames.length,
          contentType: item.type.startsWith('video/') ? item.type : 'video/webm',
          bytes,
          width: null,
          height: null,
          sharpness: null,
          blurred: null,
        });
        continue;
      }
      const check = await images.check(bytes);
      if (!check.ok) throw imageRefusal(check.code, check.detail, name);
      frames.push(storedImage(frames.length, bytes, check));
    }
  }
  return proof;
}

type Ctx = Context<AuthEnv>;

/** An image that passed its checks, as it is stored: its type, size and sharpness as the checks read them. */
function storedImage(seq: number, bytes: Uint8Array, check: Extract<ImageCheck, { ok: true }>): StoredImage {
  return {
    seq,
    contentType: `image/${check.header.format}`,
    bytes,
    width: check.header.width,
    height: check.header.height,
    sharpness: check.sharpness.score,
    blurred: check.sharpness.blurred,
  };
}

/** The image's content type as declared: JPEG or PNG only (its bytes are checked after). */
function assertImageType(c: Ctx): void {
  const declared = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (declared !== 'image/jpeg' && declared !== 'image/png' && declared !== 'image/jpg') {
    throw new DetailedProblem(415, 'Send the image as image/jpeg or image/png.', 'unsupported_media_type', {
      errors: [{ field: 'image', code: 'image_wrong_type' }],
    });
  }
}

/** PUT obverse|reverse|selfie: one image checked, stored in place of the one before, the result started. */
async function putImage(rt: OnboardingRuntime, c: Ctx) {
  const portrayal = await ownPortrayal(rt, c, c.req.param('id') ?? '');
  const kind = c.req.param('kind') as ImageKind;
  assertOpen(portrayal.onboarding_status);
  if (kind !== 'selfie' && portrayal.portrayal_type !== 'document') {
    throw new HttpProblem(
      409,
      `A ${portrayal.portrayal_type} portrayal has no ${kind} image.`,
      'image_not_expected',
    );
  }
  assertImageType(c);
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const check = await rt.images.check(bytes);
  if (!check.ok) throw imageRefusal(check.code, check.detail);
  const image = storedImage(0, bytes, check);
  // A selfie sent after a passing liveness proof: the proof must show the selfie's person too.
  const liveness =
    kind === 'selfie' && portrayal.liveness_result === 'passing'
      ? await proofAgainstSelfie(rt, c.get('tenant'), portrayal.portrayal_id, image)
      : undefined;
  await replaceImages(rt.db, c.get('tenant'), portrayal.portrayal_id, kind, [image], rt.now(), liveness);
  startResult(rt, c, portrayal.portrayal_id);
  return c.json({
    portrayal_id: portrayal.portrayal_id,
    image: kind,
    format: check.header.format,
    width: check.header.width,
    height: check.header.height,
    bytes: bytes.length,
  });
}

function assertMultipart(c: Ctx): void {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw new HttpProblem(415, 'Send the liveness proof as multipart/form-data.', 'unsupported_media_type');
  }
}

/** The multipart body of a liveness proof, or a 400 problem when the form parser cannot read it. */
async function parseProofForm(c: Ctx) {
  try {
    return await c.req.parseBody({ all: true });
  } catch {
    // No boundary, a truncated part, an empty body: what the form parser cannot read.
    throw new DetailedProblem(400, 'The multipart body cannot be read.', 'invalid_multipart', {
      errors: [{ field: 'body', code: 'wrong_format' }],
    });
  }
}

/** The challenge the proof answers: one the person was given, or a 400 problem. */
async function ownChallenge(rt: OnboardingRuntime, c: Ctx, challengeId: string | null) {
  if (challengeId === null) return null;
  const row = isUuid(challengeId) ? await findOwnChallenge(rt.db, ownerOf(c), challengeId) : undefined;
  if (!row) throw validationProblem([{ field: 'challenge', code: 'unknown_challenge' }]);
  return { actions: row.actions, expiresAt: row.expires_at };
}

/**
 * The engine's liveness verdict on the proof's still frames and videos, against the selfie sent before the proof
 * if any (LivenessInput.selfie), in the heavy-work queue. An engine error is a liveness not judged, never a 500.
 */
async function judgeLiveness(
  rt: OnboardingRuntime,
  c: Ctx,
  engine: Awaited<ReturnType<OnboardingRuntime['engine']>>,
  proof: Pick<Proof, 'frames' | 'videos'> & {
    portrayalId: string;
    challenge: Awaited<ReturnType<typeof ownChallenge>>;
  },
) {
  const storedSelfie = (await imagesOf(rt.db, c.get('tenant'), proof.portrayalId)).find(
    (row) => row.kind === 'selfie',
  );
  return rt.heavy
    .run(() =>
      rt.judgement('liveness', () =>
        engine.checkLiveness({
          ...(storedSelfie
            ? {
                selfie: {
                  kind: 'selfie' as const,
                  bytes: storedSelfie.bytes,
                  sharpness: { score: storedSelfie.sharpness, blurred: storedSelfie.blurred },
                },
              }
            : {}),
          frames: proof.frames
            .filter((frame) => frame.contentType.startsWith('image/'))
            .map((frame) => ({
              kind: 'lifeproof',
              bytes: frame.bytes,
              sharpness: { score: frame.sharpness, blurred: frame.blurred },
            })),
          videos: proof.videos,
          challenge: proof.challenge,
          submittedAt: rt.now(),
        }),
      ),
    )
    .catch((failure: unknown) => ({
      result: 'not_computed' as const,
      detail: `The engine failed: ${failure instanceof Error ? failure.message : String(failure)}`,
    }));
}

/** PUT lifeproof: the proof read and checked, judged, stored in place of the one before, the result started. */
async function putLifeproof(rt: OnboardingRuntime, c: Ctx) {
  const portrayal = await ownPortrayal(rt, c, c.req.param('id') ?? '');
  assertOpen(portrayal.onboarding_status);
  assertMultipart(c);
  const engine = await rt.engine();
  const { frames, videos, livenessData, challengeId } = await readProof(await parseProofForm(c), rt.images);
  if (frames.length === 0) throw validationProblem([{ field: 'frames', code: 'required' }]);
  const challenge = await ownChallenge(rt, c, challengeId);
  const portrayalId = portrayal.portrayal_id;
  const liveness = await judgeLiveness(rt, c, engine, { portrayalId, frames, videos, challenge });
  await replaceImages(rt.db, c.get('tenant'), portrayal.portrayal_id, 'lifeproof', frames, rt.now(), {
    livenessResult: liveness.result,
    livenessDetail: liveness.detail,
    livenessData,
    challengeId: challengeId && isUuid(challengeId) ? challengeId : null,
  });
  startResult(rt, c, portrayal.portrayal_id);
  return c.json({
    portrayal_id: portrayal.portrayal_id,
    frames: frames.length,
    life_proofing: liveness.result,
  });
}

export function portrayalImagesRouter(rt: OnboardingRuntime): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { requireOnboarding } = rt;
  // Each upload takes a place in the heavy-work queue before its body is read (429 busy past two of one person's).
  const admitted = admitHeavy(rt.heavy);
  app.put(
    '/internal/portrayals/:id/:kind{obverse|reverse|selfie}',
    requireOnboarding,
    admitted,
    tooLarge(IMAGE_MAX_BYTES),
    (c) => putImage(rt, c),
  );
  app.put(
    '/internal/portrayals/:id/lifeproof',
    requireOnboarding,
    admitted,
    tooLarge(LIFEPROOF_MAX_BYTES),
    (c) => putLifeproof(rt, c),
  );
  return app;
}
