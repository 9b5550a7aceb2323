// The biometric engine behind the onboarding API. The basic engine checks what is cheap (image type, bounds,
// pixel size, sharpness, images sent twice) and answers 'not computed' for the rest; the reference engine
// (./reference/engine.ts, the default) adds, offline, the reading of the document's MRZ, the face comparison
// and the liveness judgement. A production engine implements the same interface and is chosen with
// BIOMETRIC_ENGINE.
import {
  type DocumentInfo,
  type FailedCheck,
  type ImageKind,
  type PortrayalErrorCode,
  unreadDocumentInfo,
  type Verification,
} from '../../contract/api/onboarding';
import { checkImage, type ImageBounds, type ImageCheck, type Sharpness } from './images';

// Verification (spec §3), PortrayalErrorCode (spec §8), ImageKind and DocumentInfo: the portal's contract.
export type { DocumentInfo, FailedCheck, ImageKind, PortrayalErrorCode, Verification };

export interface EngineImage {
  kind: ImageKind;
  bytes: Uint8Array;
  /** As measured at upload; null score when the format was not judged. */
  sharpness: Pick<Sharpness, 'score' | 'blurred'>;
}

/** A refusal: the spec §8 code, the picture it concerns, and, for a document check, which field failed which rule. */
export type EngineFailure = {
  ok: false;
  error: PortrayalErrorCode;
  image?: ImageKind;
  detail: string;
  check?: FailedCheck;
};

/** Document types that carry the holder's portrait: a document of one of them without a face is refused. */
export const PORTRAIT_DOCUMENTS: readonly string[] = ['passport', 'id_card', 'driving_license'];
/** Document types that carry an ICAO 9303 MRZ: one of them is verified by it or refused, never half-read. */
export const MRZ_DOCUMENTS: readonly string[] = ['passport', 'id_card'];

export type DocumentAnalysis =
  | {
      ok: true;
      document_info: DocumentInfo;
      document_validation: Verification;
      score_document_valid: number | null;
      data_validation: Verification;
    }
  | EngineFailure;

export type FaceComparison =
  | {
      ok: true;
      score_biometry: number | null;
      score_biometry_valid: boolean | null;
      selfie_authenticity_valid: boolean;
    }
  | EngineFailure;

/**
 * Challenge actions that keep the face to the camera (blink, smile): a challenge starts with one of them when
 * LIVENESS_ACTIONS allows it, so the proof's first frame, which the portal compares with the document when no
 * selfie was sent apart, is frontal, and the other frames can be judged against it.
 */
export const FRONTAL_ACTIONS: readonly string[] = ['blink', 'smile'];

export interface LivenessInput {
  frames: EngineImage[];
  /** Video parts of the proof: stored, not decoded by the reference engine. */
  videos: number;
  /** The challenge the frames answer, when one was named; expired means it ran out before the upload. */
  challenge: { actions: string[]; expiresAt: Date } | null;
  submittedAt: Date;
  /**
   * The portrayal's own selfie, when one was sent apart from the proof (an API client may send both, in either
   * order; the portal's TakeSelfieAlive sends the proof alone, and its first frame is then the selfie). An engine
   * that gets it judges that the proof shows the selfie's person; optional, so an engine may ignore it.
   */
  selfie?: EngineImage;
}

export interface LivenessResult {
  result: Verification;
  detail: string;
}

export interface BiometricEngine {
  readonly name: string;
  /** Loads models and workers ahead of the first request (optional); resolves to a line for the log. */
  warmUp?(): Promise<string>;
  /**
   * The image checks every upload goes through (server/onboarding/image-checks.ts calls it for the enrolment's
   * pictures, single and delegated registrations and the bulk import alike): type, the byte bounds named (the
   * registration's 5 kB – 5 MB by default), header, pixel limit, decoding and sharpness.
   */
  checkImage(bytes: Uint8Array, bounds?: ImageBounds): Promise<ImageCheck>;
  analyseDocument(input: {
    documentType: string | null;
    documentCountry: string | null;
    obverse: EngineImage | undefined;
    reverse: EngineImage | undefined;
  }): Promise<DocumentAnalysis>;
  /**
   * documentType (optional, for an engine that judges it): a type of PORTRAIT_DOCUMENTS whose images show no face
   * is a document_classification_error.
   */
  compareFaces(input: {
    selfie: EngineImage;
    document: EngineImage[];
    documentType?: string | null;
  }): Promise<FaceComparison>;
  checkLiveness(input: LivenessInput): Promise<LivenessResult>;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

export function blurred(images: (EngineImage | undefined)[]): EngineFailure | undefined {
  const image = images.find((candidate) => candidate?.sharpness.blurred === true);
  if (!image) return undefined;
  return {
    ok: false,
    error: 'blurred_image_error',
    image: image.kind,
    detail: `The ${image.kind} image is blurred (sharpness ${image.sharpness.score} ‰).`,
  };
}

/** The cheap checks alone (the route tests' engine; and what the reference engine starts with). */
export const basicEngine: BiometricEngine = {
  name: 'basic',

  async checkImage(bytes, bounds) {
    return checkImage(bytes, bounds);
  },

  async analyseDocument({ documentType, obverse, reverse }) {
    const blur = blurred([obverse, reverse]);
    if (blur) return blur;
    if (obverse && reverse && sameBytes(obverse.bytes, reverse.bytes)) {
      return {
        ok: false,
        error: 'document_classification_error',
        image: 'reverse',
        detail:
          'The reverse is the same picture as the obverse: it cannot be classified as the reverse side.',
      };
    }
    return {
      ok: true,
      // No OCR here: every field is left for the person to type on review.
      document_info: unreadDocumentInfo(documentType),
      document_validation: 'not_computed',
      score_document_valid: null,
      data_validation: 'not_computed',
    };
  },

  async compareFaces({ selfie, document }) {
    const blur = blurred([selfie]);
    if (blur) return blur;
    if (document.some((image) => sameBytes(image.bytes, selfie.bytes))) {
      return {
        ok: false,
        error: 'spoofed_image_error',
        image: 'selfie',
        detail: 'The selfie is the same picture as a document image.',
      };
    }
    return { ok: true, score_biometry: null, score_biometry_valid: null, selfie_authenticity_valid: true };
  },

  async checkLiveness({ frames, videos, challenge, submittedAt }) {
    if (frames.length === 0 && videos === 0) return { result: 'failing', detail: 'No frame was sent.' };
    if (challenge && challenge.expiresAt.getTime() < submittedAt.getTime()) {
      return { result: 'failing', detail: 'The challenge expired before the proof was sent.' };
    }
    const usable = frames.filter((frame) => frame.sharpness.blurred !== true);
    if (videos === 0 && usable.length === 0) return { result: 'failing', detail: 'Every frame is blurred.' };
    return { result: 'not_computed', detail: 'The reference engine does not judge head movements.' };
  },
};
