// Faces in a photo: @vladmandic/face-api (the Tiny Face Detector, SSD MobileNet v1 when it finds nothing, 68-point landmarks, the 128-d ResNet
// face descriptor; the weights ship in the package's model/ folder) on the TensorFlow.js WebAssembly backend
// (@tensorflow/tfjs-backend-wasm, its .wasm files read from node_modules), images decoded with sharp.
// The models load once per process (loadFaceModels, called at start-up) and stay in memory.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

type FaceApi = typeof import('@vladmandic/face-api/dist/face-api.node-wasm.js');
type Tf = FaceApi['tf'];

const require = createRequire(import.meta.url);

/** Faces are looked for in the image scaled down to this longest side: enough for the 512-px detector. */
const MAX_SIDE = 720;
/** Detector confidence below which a candidate is not a face. */
export const MIN_DETECTION_SCORE = 0.5;

let loading: Promise<FaceApi> | undefined;

export function loadFaceModels(): Promise<FaceApi> {
  loading ??= (async () => {
    const wasm = require('@tensorflow/tfjs-backend-wasm') as {
      setWasmPaths: (prefix: string, usePlatformFetch?: boolean) => void;
    };
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
    const tf = faceapi.tf as Tf & {
      setBackend: (name: string) => Promise<boolean>;
      ready: () => Promise<void>;
    };
    // Emscripten reads the .wasm from this folder with fs (not fetch: Node's fetch takes no file paths).
    wasm.setWasmPaths(
      `${join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist')}/`,
      false,
    );
    await tf.setBackend('wasm');
    await tf.ready();
    const models = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
    await faceapi.nets.tinyFaceDetector.loadFromDisk(models);
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(models);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(models);
    await faceapi.nets.faceRecognitionNet.loadFromDisk(models);
    return faceapi;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

export interface Face {
  /** Detector confidence, 0–1. */
  score: number;
  /** The face box as fractions of the image's width and height. */
  box: { x: number; y: number; width: number; height: number };
  descriptor: Float32Array;
  /** Head turn: the nose tip's offset from the middle of the jaw line, as a fraction of the face's width. */
  yaw: number;
  /** The nose tip, as fractions of the image's width and height. */
  nose: { x: number; y: number };
  /** Head tilt: the nose tip's height below the eye line as a fraction of the mouth's (0 eyes, 1 mouth). */
  pitch: number;
}

interface Point {
  x: number;
  y: number;
}

export function poseOf(points: Point[]): { yaw: number; pitch: number } {
  const at = (i: number) => points[i] ?? { x: 0, y: 0 };
  const mean = (indices: number[]) => ({
    x: indices.reduce((sum, i) => sum + at(i).x, 0) / indices.length,
    y: indices.reduce((sum, i) => sum + at(i).y, 0) / indices.length,
  });
  const left = at(0);
  const right = at(16);
  const nose = at(30);
  const width = Math.max(1, right.x - left.x);
  // Pitch: the nose tip stands out of the face, so a tilt moves it up or down the face more than the eyes
  // and the mouth, which lie nearly in one plane. Its height above the eye line against the mouth's (both
  // measured square to the eye line, so a head leaning sideways reads the same) hardly changes when the
  // head turns, which moves points along the eye line, not across it.
  const leftEye = mean([36, 37, 38, 39, 40, 41]);
  const rightEye = mean([42, 43, 44, 45, 46, 47]);
  const mouth = mean([48, 51, 54, 57]);
  const line = { x: rightEye.x - leftEye.x, y: rightEye.y - leftEye.y };
  const norm = Math.max(1, Math.hypot(line.x, line.y));
  const below = (point: Point) => ((point.y - leftEye.y) * line.x - (point.x - leftEye.x) * line.y) / norm;
  return {
    yaw: (nose.x - (left.x + right.x) / 2) / width,
    pitch: below(nose) / Math.max(1, below(mouth)),
  };
}

type Box = Face['box'] & { score: number };

/** Face boxes alone (no landmarks, no descriptor): the cheap first look at a document page. */
async function faceBoxesIn(bytes: Uint8Array, minConfidence: number): Promise<Box[]> {
  const faceapi = await loadFaceModels();
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const tensor = faceapi.tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
  try {
    const input = tensor as unknown as Parameters<typeof faceapi.detectAllFaces>[0];
    let found = await faceapi.detectAllFaces(
      input,
      new faceapi.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold: minConfidence }),
    );
    if (found.length === 0) {
      found = await faceapi.detectAllFaces(input, new faceapi.SsdMobilenetv1Options({ minConfidence }));
    }
    return found
      .map((face) => ({
        score: face.score,
        x: face.box.x / info.width,
        y: face.box.y / info.height,
        width: face.box.width / info.width,
        height: face.box.height / info.height,
      }))
      .sort((a, b) => b.score - a.score);
  } finally {
    tensor.dispose();
  }
}

/** Every face found in a photo, largest first. */
export async function facesIn(bytes: Uint8Array, minConfidence = MIN_DETECTION_SCORE): Promise<Face[]> {
  const faceapi = await loadFaceModels();
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const tensor = faceapi.tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
  try {
    const input = tensor as unknown as Parameters<typeof faceapi.detectAllFaces>[0];
    // The Tiny Face Detector first; SSD MobileNet (five times the cost) only when it finds nothing: it misses
    // some faces that fill the frame.
    let found = await faceapi
      .detectAllFaces(
        input,
        new faceapi.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold: minConfidence }),
      )
      .withFaceLandmarks()
      .withFaceDescriptors();
    if (found.length === 0) {
      found = await faceapi
        .detectAllFaces(input, new faceapi.SsdMobilenetv1Options({ minConfidence, maxResults: 5 }))
        .withFaceLandmarks()
        .withFaceDescriptors();
    }
    return found
      .map((face) => {
        const box = face.detection.box;
        return {
          score: face.detection.score,
          box: {
            x: box.x / info.width,
            y: box.y / info.height,
            width: box.width / info.width,
            height: box.height / info.height,
          },
          descriptor: face.descriptor,
          nose: {
            x: (face.landmarks.positions[30]?.x ?? 0) / info.width,
            y: (face.landmarks.positions[30]?.y ?? 0) / info.height,
          },
          ...poseOf(face.landmarks.positions),
        };
      })
      .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  } finally {
    tensor.dispose();
  }
}

/** Euclidean distance between two face descriptors (0 the same face; about 0.6 and up, different people). */
export function descriptorDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  return Math.sqrt(sum);
}

/** Similarity 0–1 from the descriptor distance: 1 − distance, clamped. */
export function similarity(a: Float32Array, b: Float32Array): number {
  return Math.round(Math.min(1, Math.max(0, 1 - descriptorDistance(a, b))) * 1000) / 1000;
}

/** A 64-bit difference hash (9 × 8 greyscale, each pixel against its right neighbour). */
export async function differenceHash(bytes: Uint8Array): Promise<bigint> {
  const pixels = await sharp(bytes).rotate().greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer();
  let hash = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      hash = (hash << 1n) | ((pixels[y * 9 + x] ?? 0) > (pixels[y * 9 + x + 1] ?? 0) ? 1n : 0n);
    }
  }
  return hash;
}

export function hammingDistance(a: bigint, b: bigint): number {
  let bits = a ^ b;
  let count = 0;
  while (bits > 0n) {
    count += Number(bits & 1n);
    bits >>= 1n;
  }
  return count;
}

/** Detector confidence enough to look closer at a candidate on a document page. */
const DOCUMENT_CANDIDATE_SCORE = 0.3;

/**
 * The portrait on a document page. A portrait takes a small part of the page, where the detector is unsure:
 * the most likely candidate is cropped with a margin and looked at again, where it must be a sure face.
 */
export async function documentFace(bytes: Uint8Array): Promise<Face | undefined> {
  const [candidate] = await faceBoxesIn(bytes, DOCUMENT_CANDIDATE_SCORE);
  if (!candidate) return undefined;
  const image = sharp(bytes).rotate();
  const { width = 0, height = 0 } = await image.metadata();
  const { x, y, width: w, height: h } = candidate;
  const left = Math.max(0, Math.floor((x - w * 0.6) * width));
  const top = Math.max(0, Math.floor((y - h * 0.6) * height));
  const right = Math.min(width, Math.ceil((x + w * 1.6) * width));
  const bottom = Math.min(height, Math.ceil((y + h * 1.6) * height));
  const portrait = await image
    .extract({ left, top, width: right - left, height: bottom - top })
    .png()
    .toBuffer();
  return (await facesIn(portrait))[0];
}
