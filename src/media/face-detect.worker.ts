// Off the main thread: whether a selfie camera frame shows a face, and how large (for auto-capture). The
// weights come from our own origin (a hashed asset of the build), fetched once when the first frame arrives.

import modelUrl from '@vladmandic/face-api/model/tiny_face_detector_model.bin?url';
import manifest from '@vladmandic/face-api/model/tiny_face_detector_model-weights_manifest.json';
import {
  detectFaces,
  FACE_INPUT_SIZE,
  type FaceBox,
  type FaceDetectorWeights,
  readFaceDetectorWeights,
  type WeightsManifest,
} from './face-detector';

export type FaceRequest = { id: number; frame: ImageBitmap };
export type FaceResponse =
  | { id: number; faces: FaceBox[]; width: number; height: number; ms: number }
  | { id: number; error: string };

let weights: Promise<FaceDetectorWeights> | undefined;

function loadWeights(): Promise<FaceDetectorWeights> {
  weights ??= fetch(modelUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`face model: HTTP ${response.status}`);
      return response.arrayBuffer();
    })
    .then((data) => readFaceDetectorWeights(manifest as WeightsManifest, data));
  // A failed load is tried again with the next frame.
  weights.catch(() => {
    weights = undefined;
  });
  return weights;
}

const canvas = new OffscreenCanvas(FACE_INPUT_SIZE, FACE_INPUT_SIZE);
const context = canvas.getContext('2d', { willReadFrequently: true });

async function facesOf(frame: ImageBitmap): Promise<FaceResponse & { faces: FaceBox[] }> {
  const model = await loadWeights();
  if (!context) throw new Error('no 2d context in the worker');
  const started = performance.now();
  // As face-api draws its input: the longer side fills the square, from the top-left corner, black around.
  const scale = FACE_INPUT_SIZE / Math.max(frame.width, frame.height);
  const width = Math.max(1, Math.round(frame.width * scale));
  const height = Math.max(1, Math.round(frame.height * scale));
  context.fillStyle = '#000';
  context.fillRect(0, 0, FACE_INPUT_SIZE, FACE_INPUT_SIZE);
  context.drawImage(frame, 0, 0, width, height);
  const { data } = context.getImageData(0, 0, FACE_INPUT_SIZE, FACE_INPUT_SIZE);
  const faces = detectFaces(model, data, width, height);
  return { id: 0, faces, width: frame.width, height: frame.height, ms: performance.now() - started };
}

self.onmessage = async (event: MessageEvent<FaceRequest>) => {
  const { id, frame } = event.data;
  let response: FaceResponse;
  try {
    response = { ...(await facesOf(frame)), id };
  } catch (error) {
    response = { id, error: error instanceof Error ? error.message : String(error) };
  } finally {
    frame.close();
  }
  (self as unknown as Worker).postMessage(response);
};
