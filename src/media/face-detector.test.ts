import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  detectFaces,
  FACE_INPUT_SIZE,
  type FaceDetectorWeights,
  judgeFaces,
  readFaceDetectorWeights,
  type WeightsManifest,
} from './face-detector';

const require = createRequire(import.meta.url);
const MODELS = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
const manifest = JSON.parse(
  readFileSync(join(MODELS, 'tiny_face_detector_model-weights_manifest.json'), 'utf8'),
) as WeightsManifest;

function weights(): FaceDetectorWeights {
  const bin = readFileSync(join(MODELS, 'tiny_face_detector_model.bin'));
  return readFaceDetectorWeights(manifest, bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.length));
}

/** The network's input as the worker draws it: the longer side fills the square, top-left, black around. */
async function inputOf(file: string | Buffer) {
  const { width = 0, height = 0 } = await sharp(file).metadata();
  const scale = FACE_INPUT_SIZE / Math.max(width, height);
  const w = Math.round(width * scale);
  const h = Math.round(height * scale);
  const scaled = await sharp(file).resize(w, h, { fit: 'fill' }).removeAlpha().ensureAlpha().raw().toBuffer();
  const square = new Uint8ClampedArray(FACE_INPUT_SIZE * FACE_INPUT_SIZE * 4);
  for (let y = 0; y < h; y++)
    square.set(scaled.subarray(y * w * 4, (y + 1) * w * 4), y * FACE_INPUT_SIZE * 4);
  return { square, w, h, width, height };
}

describe('the selfie face detector (Tiny Face Detector in plain TypeScript)', () => {
  let model: FaceDetectorWeights;
  beforeAll(() => {
    model = weights();
  });

  it('finds the face of a selfie, large enough for auto-capture', async () => {
    const { square, w, h, width, height } = await inputOf('tests/fixtures/specimens/selfie.jpg');
    const faces = detectFaces(model, square, w, h);
    expect(faces).toHaveLength(1);
    expect(faces[0]?.score).toBeGreaterThan(0.5);
    expect(judgeFaces(faces, width, height)).toBe('present');
  });

  it('finds no face in a document lying on a table, nor in the back of an ID card', async () => {
    for (const file of ['tests/fixtures/images/document.jpg', 'tests/fixtures/specimens/id-card-back.jpg']) {
      const { square, w, h, width, height } = await inputOf(file);
      expect(judgeFaces(detectFaces(model, square, w, h), width, height), file).toBe('absent');
    }
  });

  it('judges a face far from the camera as too small', async () => {
    // The selfie 150 px wide in the middle of a 640 × 480 frame: its face box is ~135 px of the 480 (0.28).
    const face = await sharp('tests/fixtures/specimens/selfie.jpg').resize({ width: 150 }).toBuffer();
    const frame = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#5a6470' } })
      .composite([{ input: face, gravity: 'centre' }])
      .png()
      .toBuffer();
    const { square, w, h, width, height } = await inputOf(frame);
    const faces = detectFaces(model, square, w, h);
    expect(faces).toHaveLength(1);
    expect(judgeFaces(faces, width, height)).toBe('tooSmall');
  });

  it('finds both people of a picture with two', async () => {
    const { square, w, h } = await inputOf('tests/fixtures/specimens/selfie-two-people.jpg');
    expect(detectFaces(model, square, w, h)).toHaveLength(2);
  });

  it('judges by the largest face against the shorter side', () => {
    const face = { score: 0.9, x: 0.3, y: 0.2, height: 0.4 };
    expect(judgeFaces([], 640, 480)).toBe('absent');
    // 0.25 × 640 = 160 px of 480: a third of the shorter side.
    expect(judgeFaces([{ ...face, width: 0.25 }], 640, 480)).toBe('present');
    expect(judgeFaces([{ ...face, width: 0.2 }], 640, 480)).toBe('tooSmall');
    expect(
      judgeFaces(
        [
          { ...face, width: 0.1 },
          { ...face, width: 0.35 },
        ],
        480,
        640,
      ),
    ).toBe('present');
  });

  it('refuses weights that do not match their manifest', () => {
    expect(() => readFaceDetectorWeights(manifest, new ArrayBuffer(1000))).toThrow(/truncated/);
    expect(() => readFaceDetectorWeights([{ paths: [], weights: [] }], new ArrayBuffer(0))).toThrow(/lack/);
  });

  // The forward pass is face-api's own network written out: on the same pixels it must give face-api's answer.
  it("gives face-api's (TensorFlow.js) scores and boxes on the same pixels", async () => {
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    wasm.setWasmPaths(
      `${join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist')}/`,
      false,
    );
    await faceapi.tf.setBackend('wasm');
    await faceapi.tf.ready();
    await faceapi.nets.tinyFaceDetector.loadFromDisk(MODELS);
    const files = [
      'tests/fixtures/specimens/selfie.jpg',
      'tests/fixtures/specimens/selfie-other.jpg',
      'tests/fixtures/specimens/id-card-front.jpg',
      'tests/fixtures/specimens/selfie-two-people.jpg',
    ];
    for (const file of files) {
      const size = FACE_INPUT_SIZE;
      const rgba = await sharp(file)
        .resize(size, size, { fit: 'fill' })
        .removeAlpha()
        .ensureAlpha()
        .raw()
        .toBuffer();
      const rgb = await sharp(file).resize(size, size, { fit: 'fill' }).removeAlpha().raw().toBuffer();
      const ours = detectFaces(model, new Uint8ClampedArray(rgba), size, size, 0.3);
      const tensor = faceapi.tf.tensor3d(new Uint8Array(rgb), [size, size, 3], 'int32');
      const theirs = await faceapi.detectAllFaces(
        tensor,
        new faceapi.TinyFaceDetectorOptions({ inputSize: size, scoreThreshold: 0.3 }),
      );
      tensor.dispose();
      expect(ours.length, file).toBe(theirs.length);
      ours.forEach((face, i) => {
        const other = theirs[i];
        expect(face.score, file).toBeCloseTo(other.score, 3);
        expect(face.x, file).toBeCloseTo(other.relativeBox.x, 3);
        expect(face.y, file).toBeCloseTo(other.relativeBox.y, 3);
        expect(face.width, file).toBeCloseTo(other.relativeBox.width, 3);
        expect(face.height, file).toBeCloseTo(other.relativeBox.height, 3);
      });
    }
  });
});
