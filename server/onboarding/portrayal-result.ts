// The portrayal result (spec §3 Portrayal result, §8 portrayal result errors): when the images are complete
// enough to judge, and what the biometric engine makes of them. The answer is stored with the images version
// it was computed from.
import { type FailedCheck, type ImageKind, unreadDocumentInfo } from '../../contract/api/onboarding';
import { DetailedProblem } from '../http/validation';
import type { EngineImage } from './engine';
import type { OnboardingRuntime } from './runtime';
import { type ImageRow, type PortrayalRow, saveResult, storedResult } from './store/portrayals';

export interface ResultError {
  code: string;
  image: string | null;
  /** Which check refused the document (field and rule), when a check did. */
  check?: FailedCheck | null;
}

const toEngineImage = (row: ImageRow): EngineImage => ({
  kind: row.kind,
  bytes: row.bytes,
  sharpness: { score: row.sharpness, blurred: row.blurred },
});

const isStill = (row: ImageRow) => row.content_type === 'image/jpeg' || row.content_type === 'image/png';

/** The selfie, or failing that the first still frame of the liveness proof. */
function selfieOf(images: ImageRow[]): ImageRow | undefined {
  return (
    images.find((image) => image.kind === 'selfie') ??
    images.find((image) => image.kind === 'lifeproof' && isStill(image))
  );
}

/** A selfie, the obverse of a document, and the liveness proof when the onboarding asks for one. */
export function requiredImagesIn(portrayal: PortrayalRow, images: ImageRow[]): boolean {
  if (!selfieOf(images)) return false;
  if (portrayal.portrayal_type === 'document' && !images.some((image) => image.kind === 'obverse'))
    return false;
  if (portrayal.life_proofing && portrayal.liveness_result === null) return false;
  return true;
}

const inFlight = new Map<
  string,
  Promise<{ result: Record<string, unknown> | null; error: ResultError | null }>
>();

/**
 * The result of these images, computed once: started right after the upload that completes the images (off
 * the request path), and joined by a poll that comes before it is stored.
 */
export function computeResultOnce(
  rt: OnboardingRuntime,
  tenant: string,
  portrayal: PortrayalRow,
  images: ImageRow[],
): Promise<{ result: Record<string, unknown> | null; error: ResultError | null }> {
  const key = `${tenant}:${portrayal.portrayal_id}:${portrayal.images_version}`;
  let job = inFlight.get(key);
  if (!job) {
    // The caller read the portrayal before this version's job ended and left inFlight: the stored answer is the
    // answer (judging again could give another one, and costs the engine's time twice).
    job = storedResult(rt.db, tenant, portrayal.portrayal_id, portrayal.images_version)
      .then((stored) => stored ?? computeResult(rt, tenant, portrayal, images))
      .finally(() => inFlight.delete(key));
    inFlight.set(key, job);
  }
  return job;
}

export async function computeResult(
  rt: OnboardingRuntime,
  tenant: string,
  portrayal: PortrayalRow,
  images: ImageRow[],
): Promise<{ result: Record<string, unknown> | null; error: ResultError | null }> {
  const engine = await rt.engine();
  const byKind = (kind: ImageKind) => {
    const row = images.find((image) => image.kind === kind);
    return row ? toEngineImage(row) : undefined;
  };
  const selfieRow = selfieOf(images);
  let result: Record<string, unknown> | null = null;
  let error: ResultError | null = null;
  try {
    const obverse = byKind('obverse');
    const reverse = byKind('reverse');
    // The document's OCR runs in Tesseract's worker thread while the faces are compared on this one: on two
    // cores the two overlap. Together they are one job of the heavy-work queue (heavy-work.ts).
    const [analysis, faces] = await rt.heavy.run(() =>
      rt.judgement('portrayal', () =>
        Promise.all([
          portrayal.portrayal_type === 'document'
            ? engine.analyseDocument({
                documentType: portrayal.document_type,
                documentCountry: portrayal.document_country,
                obverse,
                reverse,
              })
            : null,
          selfieRow
            ? engine.compareFaces({
                selfie: toEngineImage(selfieRow),
                document: [obverse, reverse].filter((image): image is EngineImage => image !== undefined),
                documentType: portrayal.portrayal_type === 'document' ? portrayal.document_type : null,
              })
            : null,
        ]),
      ),
    );
    if (analysis && !analysis.ok) {
      error = { code: analysis.error, image: analysis.image ?? null, check: analysis.check ?? null };
    } else if (faces) {
      if (!faces.ok) {
        error = { code: faces.error, image: faces.image ?? null, check: faces.check ?? null };
      } else {
        result = {
          portrayal_id: portrayal.portrayal_id,
          document_info: analysis?.document_info ?? unreadDocumentInfo(portrayal.document_type),
          document_validation: analysis?.document_validation ?? 'not_computed',
          score_document_valid: analysis?.score_document_valid ?? null,
          data_validation: analysis?.data_validation ?? 'not_computed',
          score_biometry: faces.score_biometry,
          score_biometry_valid: faces.score_biometry_valid,
          selfie_authenticity_valid: faces.selfie_authenticity_valid,
          life_proofing_result: portrayal.life_proofing ? portrayal.liveness_result : null,
        };
      }
    }
  } catch (failure) {
    rt.logger.log('warn', 'biometric engine failed', {
      portrayal: portrayal.portrayal_id,
      err: failure instanceof Error ? failure.message : String(failure),
    });
    error = { code: 'validas_error', image: null };
    result = null;
  }
  await saveResult(rt.db, tenant, portrayal.portrayal_id, portrayal.images_version, result, error, rt.now());
  return { result, error };
}

function errorDetail(code: string, image: string | null): string {
  const where = image ? ` (${image})` : '';
  switch (code) {
    case 'blurred_image_error':
      return `The picture is blurred${where}; take it again.`;
    case 'document_classification_error':
      return `The document does not match the selected type${where}.`;
    case 'no_face_error':
      return 'No face is seen in the selfie; take it again, facing the camera.';
    case 'multiple_faces_error':
      return 'More than one face is seen in the selfie; take it again alone.';
    case 'spoofed_image_error':
      return `The picture does not look genuine${where}.`;
    default:
      return 'The document or selfie could not be analysed.';
  }
}

/** A refused portrayal is a 422 whose reason is the spec §8 error code, and the image it concerns. */
export function resultProblem(error: ResultError): DetailedProblem {
  return new DetailedProblem(422, errorDetail(error.code, error.image), error.code, {
    reason: error.code,
    image: error.image,
    check: error.check ?? null,
  });
}
