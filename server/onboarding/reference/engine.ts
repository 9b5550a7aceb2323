// The reference biometric engine: offline, everything loaded from node_modules once per process.
// - Document: the cheap checks of the basic engine, then the MRZ (ICAO 9303 TD3 passports, TD1 cards) read
//   with Tesseract and verified with the mrz package and, on Spanish documents, the DNI/NIE rules: verified
//   (document_info filled, data_validation passing) or refused (validas_error naming the failed check; nothing
//   of it is offered as read). A passport or ID card whose MRZ is not found is refused too; a passport MRZ under
//   "ID card" (or the reverse) is a document_classification_error. Only the types without an MRZ (driving
//   licence, others) leave their fields to the person.
// - Faces: the selfie must hold exactly one face close enough to the camera (no_face_error,
//   multiple_faces_error); a passport, ID card or driving licence without a face is a
//   document_classification_error; the portrait of the document is compared with it (score_biometry, the similarity
//   1 − descriptor distance; valid at FACE_MATCH_THRESHOLD and above); a selfie byte-identical or
//   perceptually near-identical to a document image is a spoof.
// - Liveness: a face in every frame, the same person in all of them and as the selfie when one was sent apart
//   from the proof, and the head turned or tilted as the challenge asked (yaw and pitch from the 68 landmarks
//   against the frames' resting pose). Blinks and smiles are not judged.
import {
  type BiometricEngine,
  basicEngine,
  blurred,
  type EngineFailure,
  FRONTAL_ACTIONS,
  type LivenessResult,
  MRZ_DOCUMENTS,
  PORTRAIT_DOCUMENTS,
  sameBytes,
} from '../engine';
import { checkImage } from '../images';
import {
  differenceHash,
  documentFace,
  type Face,
  facesIn,
  hammingDistance,
  loadFaceModels,
  similarity,
} from './faces';
import { documentInfoOf, failedCheckOf, mrzDocumentType, ocrWorker, readMrz } from './mrz';
import { warmUpImages } from './warm-up';

/** score_biometry at and above which the selfie and the document show the same person. */
export const FACE_MATCH_THRESHOLD = 0.5;
/** A selfie's face is at least this fraction of the picture's width (a document held up is not a selfie). */
export const SELFIE_MIN_FACE_WIDTH = 0.2;
/** Difference hashes this close (of 64 bits) are the same picture. */
export const NEAR_IDENTICAL_BITS = 6;
/**
 * Liveness frames show the same person at this similarity and above, against the selfie or, without one, the
 * frame nearest the resting pose: a turned or tilted head scores lower than a frontal one (face-api's own
 * same-person bound, a descriptor distance of 0.6). Alone it does not tell people apart (another person's turned
 * head can score up to ~0.46, measured in sample-faces.test.ts): with a selfie, the proof's best frame must
 * also reach FACE_MATCH_THRESHOLD.
 */
export const LIVENESS_SAME_PERSON = 0.4;
/** A turn: the nose moves this fraction of the face's width from the median frame. */
export const YAW_TURN = 0.1;
/**
 * A tilt: the nose tip moves this fraction of the eyes-to-mouth height from the resting frames (faces.ts
 * poseOf; how well that cue holds beyond the fixture is measured in sample-faces.test.ts).
 */
export const PITCH_TILT = 0.05;

const failure = (error: EngineFailure['error'], detail: string): EngineFailure => ({
  ok: false,
  error,
  image: 'selfie',
  detail,
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const TURNS = ['turn_left', 'turn_right'];
const TILTS = ['look_up', 'look_down'];

/**
 * The head's resting pose for a challenge: on each axis, the median of the frames whose action does not move
 * the head along it; when every frame moves it, the middle of the range.
 */
export function neutralPose(faces: Face[], actions: string[]): { yaw: number; pitch: number } {
  const axis = (value: (face: Face) => number, moving: string[]) => {
    const resting = faces.filter((_, i) => !moving.includes(actions[i] ?? ''));
    if (resting.length > 0) return median(resting.map(value));
    const values = faces.map(value);
    return (Math.min(...values) + Math.max(...values)) / 2;
  };
  return { yaw: axis((f) => f.yaw, TURNS), pitch: axis((f) => f.pitch, TILTS) };
}

/** Whether a frame shows the action, against the neutral pose (the frames' median). */
export function showsAction(action: string, face: Face, neutral: { yaw: number; pitch: number }): boolean {
  switch (action) {
    // The camera sees the person's left on its right: turning left moves the nose towards the picture's right.
    case 'turn_left':
      return face.yaw - neutral.yaw >= YAW_TURN;
    case 'turn_right':
      return neutral.yaw - face.yaw >= YAW_TURN;
    case 'look_up':
      return neutral.pitch - face.pitch >= PITCH_TILT;
    case 'look_down':
      return face.pitch - neutral.pitch >= PITCH_TILT;
    default:
      return true; // blink, smile: not judged by the reference engine
  }
}

/**
 * The liveness verdict on the face of each frame (one per frame, in order): the same person throughout, and,
 * when there is one frame per action, each action shown against the resting pose.
 */
export function judgeLiveness(faces: Face[], actions: string[], selfie?: Face): LivenessResult {
  // Whose face the proof must show: the selfie when one was sent apart; else the first frame that answers a
  // frontal action (FRONTAL_ACTIONS: the face to the camera; challenges start with one when they may); else the
  // frame nearest the median pose (a turned head changes the descriptor more than a frontal one does).
  const frontal =
    actions.length === faces.length ? actions.findIndex((action) => FRONTAL_ACTIONS.includes(action)) : -1;
  const neutral = { yaw: median(faces.map((f) => f.yaw)), pitch: median(faces.map((f) => f.pitch)) };
  const reference =
    selfie ??
    faces[frontal] ??
    [...faces].sort((a, b) => Math.abs(a.yaw - neutral.yaw) - Math.abs(b.yaw - neutral.yaw))[0];
  const scores = faces.map((face) => (reference ? similarity(reference.descriptor, face.descriptor) : 1));
  for (const [index, score] of scores.entries()) {
    if (score < LIVENESS_SAME_PERSON) {
      const whom = selfie ? 'another person than the selfie' : 'another person';
      return { result: 'failing', detail: `Frame ${index + 1} shows ${whom} (similarity ${score}).` };
    }
  }
  // Against a frontal face (the selfie, or the frontal frame), the best of the other frames must match as the
  // selfie matches the document: another person's turned head can pass LIVENESS_SAME_PERSON, not this.
  if (selfie || frontal >= 0) {
    const others = scores.filter((_, index) => selfie || index !== frontal);
    const best = Math.max(...others);
    const whose = selfie ? "the selfie's person" : `the person of frame ${frontal + 1} (${actions[frontal]})`;
    if (others.length > 0 && best < FACE_MATCH_THRESHOLD) {
      return {
        result: 'failing',
        detail: `No ${selfie ? '' : 'other '}frame shows ${whose} (best similarity ${best}, below ${FACE_MATCH_THRESHOLD}).`,
      };
    }
  }
  if (actions.length > 0 && actions.length === faces.length) {
    const pose = neutralPose(faces, actions);
    for (const [index, action] of actions.entries()) {
      const face = faces[index];
      if (face && !showsAction(action, face, pose)) {
        return { result: 'failing', detail: `Frame ${index + 1} does not show ${action}.` };
      }
    }
    return { result: 'passing', detail: 'A face in every frame, one person, every action shown.' };
  }
  return { result: 'passing', detail: 'A face in every frame, one person (no challenge to match).' };
}

export const referenceEngine: BiometricEngine = {
  name: 'reference',

  async warmUp() {
    const started = Date.now();
    await Promise.all([loadFaceModels(), ocrWorker()]);
    const loaded = Date.now();
    // Then a whole document + selfie judgement (warm-up.ts): the first person's is as quick as the next.
    const { passport, selfie } = await warmUpImages();
    for (const image of [passport, selfie]) {
      const check = await checkImage(image.bytes);
      if (check.ok) image.sharpness = check.sharpness;
    }
    const document = await referenceEngine.analyseDocument({
      documentType: 'passport',
      documentCountry: null,
      obverse: passport,
      reverse: undefined,
    });
    const faces = await referenceEngine.compareFaces({
      selfie,
      document: [passport],
      documentType: 'passport',
    });
    const read = document.ok && document.data_validation === 'passing' ? 'MRZ read' : 'MRZ not read';
    const compared =
      faces.ok && faces.score_biometry !== null
        ? `faces compared (${faces.score_biometry})`
        : 'faces not compared';
    return `reference engine ready: face models (Tiny Face Detector, SSD MobileNet, 68 landmarks, recognition) on tfjs wasm and Tesseract eng loaded in ${loaded - started} ms, a document + selfie judged in ${Date.now() - loaded} ms (${read}, ${compared})`;
  },

  async checkImage(bytes, bounds) {
    return checkImage(bytes, bounds);
  },

  async analyseDocument(input) {
    const basic = await basicEngine.analyseDocument(input);
    if (!basic.ok) return basic;
    const { documentType, documentCountry, obverse, reverse } = input;
    // A card has its MRZ on the back; a passport on its data page.
    let reading = reverse ? await readMrz(reverse.bytes) : null;
    let where: 'obverse' | 'reverse' = reverse ? 'reverse' : 'obverse';
    if (!reading && obverse) {
      reading = await readMrz(obverse.bytes);
      if (reading) where = 'obverse';
    }
    if (!reading) {
      // A passport or an ID card is verified by its MRZ or refused; only a document type without one (driving
      // licence, others) leaves its fields to the person.
      if (documentType && MRZ_DOCUMENTS.includes(documentType)) {
        return {
          ok: false,
          error: 'validas_error',
          image: where,
          detail: `No machine-readable zone was found on the ${documentType}.`,
          check: { field: 'mrz', rule: 'found' },
        };
      }
      return basic;
    }
    const read = mrzDocumentType(reading);
    if ((documentType === 'passport' || documentType === 'id_card') && documentType !== read) {
      return {
        ok: false,
        error: 'document_classification_error',
        image: 'obverse',
        detail: `The machine-readable zone is a ${reading.format} (${read}), not a ${documentType}.`,
        check: { field: 'document_type', rule: 'format' },
      };
    }
    // Verified or refused: nothing of a zone that fails a check is offered to the person as read.
    const check = failedCheckOf(reading, documentCountry);
    if (check) {
      return {
        ok: false,
        error: 'validas_error',
        image: where,
        detail: `The machine-readable zone fails a check: ${check.field} (${check.rule}).`,
        check,
      };
    }
    return {
      ok: true,
      document_info: documentInfoOf(reading, documentType),
      document_validation: basic.document_validation,
      score_document_valid: basic.score_document_valid,
      data_validation: 'passing',
    };
  },

  async compareFaces({ selfie, document, documentType }) {
    const blur = blurred([selfie]);
    if (blur) return blur;
    if (document.some((image) => sameBytes(image.bytes, selfie.bytes))) {
      return failure('spoofed_image_error', 'The selfie is the same picture as a document image.');
    }
    const faces = (await facesIn(selfie.bytes)).filter((face) => face.box.width >= SELFIE_MIN_FACE_WIDTH);
    if (faces.length === 0) return failure('no_face_error', 'No face close to the camera in the selfie.');
    if (faces.length > 1) return failure('multiple_faces_error', `${faces.length} faces in the selfie.`);
    const selfieHash = await differenceHash(selfie.bytes);
    for (const image of document) {
      if (hammingDistance(selfieHash, await differenceHash(image.bytes)) <= NEAR_IDENTICAL_BITS) {
        return failure('spoofed_image_error', 'The selfie is a copy of a document image.');
      }
    }
    const [own] = faces;
    let portrait: Face | undefined;
    for (const image of document) {
      portrait = await documentFace(image.bytes);
      if (portrait) break;
    }
    if (!portrait && document.length > 0 && documentType && PORTRAIT_DOCUMENTS.includes(documentType)) {
      // A passport, ID card or driving licence carries its holder's portrait: without one there is nobody to
      // compare the selfie with, and the document is not what it says it is.
      return {
        ok: false,
        error: 'document_classification_error',
        image: 'obverse',
        detail: `No face was found on the ${documentType}, which carries its holder's portrait.`,
        check: { field: 'portrait', rule: 'face' },
      };
    }
    if (!own || !portrait) {
      // A selfie-only portrayal, or a document type without a portrait (others): nothing to compare with.
      return { ok: true, score_biometry: null, score_biometry_valid: null, selfie_authenticity_valid: true };
    }
    const score = similarity(own.descriptor, portrait.descriptor);
    return {
      ok: true,
      score_biometry: score,
      score_biometry_valid: score >= FACE_MATCH_THRESHOLD,
      selfie_authenticity_valid: true,
    };
  },

  async checkLiveness(input): Promise<LivenessResult> {
    const basic = await basicEngine.checkLiveness(input);
    if (basic.result === 'failing') return basic;
    const usable = input.frames.filter((frame) => frame.sharpness.blurred !== true);
    if (usable.length === 0) return basic; // video only: not decoded
    const faces: Face[] = [];
    for (const [index, frame] of usable.entries()) {
      const found = await facesIn(frame.bytes);
      const [face] = found;
      if (!face) return { result: 'failing', detail: `No face in frame ${index + 1}.` };
      if (found.length > 1) return { result: 'failing', detail: `More than one face in frame ${index + 1}.` };
      faces.push(face);
    }
    // The selfie sent apart from the proof, if any: its face is the person the proof must show. A selfie
    // without one face is the selfie's own error (compareFaces); the proof is then judged on its own.
    const selfieFaces = input.selfie ? await facesIn(input.selfie.bytes) : [];
    const selfie = selfieFaces.length === 1 ? selfieFaces[0] : undefined;
    return judgeLiveness(faces, input.challenge?.actions ?? [], selfie);
  },
};
