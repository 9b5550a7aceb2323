// A face detector small enough for a phone's selfie camera: the forward pass of face-api's Tiny Face Detector
// (a Tiny-YOLOv2 with depthwise separable convolutions, 193 KB of 8-bit weights shipped in
// @vladmandic/face-api/model/) written out in plain TypeScript. TensorFlow.js, which face-api runs it on,
// would add ~340 KB gz to the selfie screens for nine layers; here the network is ~60 M multiply-adds on
// plain typed arrays, run in a worker (face-detect.worker.ts). Pure: no DOM, so it runs in Node's tests too.

/** One tensor of the weights manifest (tiny_face_detector_model-weights_manifest.json). */
export interface ManifestWeight {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string; scale: number; min: number };
}

export type WeightsManifest = { paths: string[]; weights: ManifestWeight[] }[];

/** The network's parameters as float arrays, by tensor name (conv0/filters, conv1/depthwise_filter, …). */
export type FaceDetectorWeights = ReadonlyMap<string, Float32Array>;

/** A face found in the picture, its box relative to the picture (0–1 on each axis). */
export interface FaceBox {
  score: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The anchors and mean colour the weights were trained with (face-api's tinyFaceDetector/const.ts). */
const ANCHORS: readonly [number, number][] = [
  [1.603231, 2.094468],
  [6.041143, 7.080126],
  [2.882459, 3.518061],
  [4.266906, 5.178857],
  [9.041765, 10.66308],
];
const MEAN_RGB = [117.001, 114.697, 97.404] as const;
const SEPARABLE_LAYERS = ['conv1', 'conv2', 'conv3', 'conv4', 'conv5'] as const;
const LAYERS = ['conv0', ...SEPARABLE_LAYERS, 'conv8'] as const;

/** The side of the square the network looks at: a multiple of 32; 224 gives a 7 × 7 grid. */
export const FACE_INPUT_SIZE = 224;
/** face-api's default score threshold for this detector. */
export const FACE_SCORE_THRESHOLD = 0.5;

/** Decodes the weights file as its manifest describes it (8-bit quantised: value = q × scale + min). */
export function readFaceDetectorWeights(manifest: WeightsManifest, data: ArrayBuffer): FaceDetectorWeights {
  const weights = new Map<string, Float32Array>();
  const bytes = new Uint8Array(data);
  let offset = 0;
  for (const group of manifest) {
    for (const entry of group.weights) {
      const size = entry.shape.reduce((a, b) => a * b, 1);
      const values = new Float32Array(size);
      const q = entry.quantization;
      if (q) {
        if (q.dtype !== 'uint8') throw new Error(`unsupported quantisation ${q.dtype} of ${entry.name}`);
        if (offset + size > bytes.length) throw new Error('face detector weights are truncated');
        for (let i = 0; i < size; i++) values[i] = (bytes[offset + i] as number) * q.scale + q.min;
        offset += size;
      } else {
        if (entry.dtype !== 'float32') throw new Error(`unsupported dtype ${entry.dtype} of ${entry.name}`);
        values.set(new Float32Array(data.slice(offset, offset + size * 4)));
        offset += size * 4;
      }
      weights.set(entry.name, values);
    }
  }
  for (const layer of LAYERS) {
    const names =
      layer === 'conv0' || layer === 'conv8'
        ? ['filters', 'bias']
        : ['depthwise_filter', 'pointwise_filter', 'bias'];
    for (const name of names) {
      if (!weights.has(`${layer}/${name}`)) throw new Error(`face detector weights lack ${layer}/${name}`);
    }
  }
  return weights;
}

/** A feature map: height × width × channels, channels last. */
interface Tensor {
  data: Float32Array;
  height: number;
  width: number;
  channels: number;
}

const leaky = (x: number) => (x < 0 ? 0.1 * x : x);

function weight(weights: FaceDetectorWeights, name: string): Float32Array {
  const values = weights.get(name);
  if (!values) throw new Error(`face detector weights lack ${name}`);
  return values;
}

/** 3 × 3 convolution without padding ('valid'), then leaky ReLU: the first layer. */
function firstConv(input: Tensor, filters: Float32Array, bias: Float32Array): Tensor {
  const out = bias.length;
  const height = input.height - 2;
  const width = input.width - 2;
  const data = new Float32Array(height * width * out);
  const { channels } = input;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o0 = (y * width + x) * out;
      data.set(bias, o0);
      for (let ky = 0; ky < 3; ky++) {
        for (let kx = 0; kx < 3; kx++) {
          const i0 = ((y + ky) * input.width + x + kx) * channels;
          for (let c = 0; c < channels; c++) {
            const v = input.data[i0 + c] as number;
            const f0 = ((ky * 3 + kx) * channels + c) * out;
            for (let o = 0; o < out; o++)
              data[o0 + o] = (data[o0 + o] as number) + v * (filters[f0 + o] as number);
          }
        }
      }
      for (let o = 0; o < out; o++) data[o0 + o] = leaky(data[o0 + o] as number);
    }
  }
  return { data, height, width, channels: out };
}

/** Depthwise 3 × 3 (zero padding of 1) then pointwise 1 × 1, bias, leaky ReLU. */
function separableConv(
  input: Tensor,
  depthwise: Float32Array,
  pointwise: Float32Array,
  bias: Float32Array,
): Tensor {
  const { height, width, channels } = input;
  const out = bias.length;
  const data = new Float32Array(height * width * out);
  const spatial = new Float32Array(channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      spatial.fill(0);
      for (let ky = -1; ky <= 1; ky++) {
        const sy = y + ky;
        if (sy < 0 || sy >= height) continue;
        for (let kx = -1; kx <= 1; kx++) {
          const sx = x + kx;
          if (sx < 0 || sx >= width) continue;
          const i0 = (sy * width + sx) * channels;
          const f0 = ((ky + 1) * 3 + kx + 1) * channels;
          for (let c = 0; c < channels; c++) {
            spatial[c] =
              (spatial[c] as number) + (input.data[i0 + c] as number) * (depthwise[f0 + c] as number);
          }
        }
      }
      const o0 = (y * width + x) * out;
      data.set(bias, o0);
      for (let c = 0; c < channels; c++) {
        const v = spatial[c] as number;
        const p0 = c * out;
        for (let o = 0; o < out; o++)
          data[o0 + o] = (data[o0 + o] as number) + v * (pointwise[p0 + o] as number);
      }
      for (let o = 0; o < out; o++) data[o0 + o] = leaky(data[o0 + o] as number);
    }
  }
  return { data, height, width, channels: out };
}

/** 2 × 2 max pooling with TensorFlow's 'same' padding (an odd edge pools what it has). */
function maxPool(input: Tensor, stride: 1 | 2): Tensor {
  const { channels } = input;
  const height = Math.ceil(input.height / stride);
  const width = Math.ceil(input.width / stride);
  const data = new Float32Array(height * width * channels).fill(Number.NEGATIVE_INFINITY);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o0 = (y * width + x) * channels;
      for (let dy = 0; dy < 2; dy++) {
        const sy = y * stride + dy;
        if (sy >= input.height) continue;
        for (let dx = 0; dx < 2; dx++) {
          const sx = x * stride + dx;
          if (sx >= input.width) continue;
          const i0 = (sy * input.width + sx) * channels;
          for (let c = 0; c < channels; c++) {
            const v = input.data[i0 + c] as number;
            if (v > (data[o0 + c] as number)) data[o0 + c] = v;
          }
        }
      }
    }
  }
  return { data, height, width, channels };
}

/** 1 × 1 convolution with bias, no activation: the box encodings. */
function pointwiseConv(input: Tensor, filters: Float32Array, bias: Float32Array): Tensor {
  const out = bias.length;
  const { height, width, channels } = input;
  const data = new Float32Array(height * width * out);
  for (let p = 0; p < height * width; p++) {
    const o0 = p * out;
    data.set(bias, o0);
    for (let c = 0; c < channels; c++) {
      const v = input.data[p * channels + c] as number;
      for (let o = 0; o < out; o++)
        data[o0 + o] = (data[o0 + o] as number) + v * (filters[c * out + o] as number);
    }
  }
  return { data, height, width, channels: out };
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function iou(a: FaceBox, b: FaceBox): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/**
 * The faces in a picture. `rgba` is the network's square input (FACE_INPUT_SIZE on each side): the picture
 * scaled so that its longer side fills the square, drawn from the top-left corner, the rest black (as
 * face-api draws it). `scaledWidth` × `scaledHeight` is the size the picture took in it. Boxes come back
 * relative to the picture, best first, overlapping ones suppressed.
 */
export function detectFaces(
  weights: FaceDetectorWeights,
  rgba: Uint8ClampedArray | Uint8Array,
  scaledWidth: number,
  scaledHeight: number,
  scoreThreshold = FACE_SCORE_THRESHOLD,
): FaceBox[] {
  const size = FACE_INPUT_SIZE;
  if (rgba.length !== size * size * 4) throw new Error(`the input must be ${size} × ${size} RGBA`);
  const input = new Float32Array(size * size * 3);
  for (let p = 0; p < size * size; p++) {
    for (let c = 0; c < 3; c++) {
      input[p * 3 + c] = ((rgba[p * 4 + c] as number) - (MEAN_RGB[c] as number)) / 255;
    }
  }
  let x: Tensor = { data: input, height: size, width: size, channels: 3 };
  x = maxPool(firstConv(x, weight(weights, 'conv0/filters'), weight(weights, 'conv0/bias')), 2);
  for (const layer of SEPARABLE_LAYERS) {
    x = separableConv(
      x,
      weight(weights, `${layer}/depthwise_filter`),
      weight(weights, `${layer}/pointwise_filter`),
      weight(weights, `${layer}/bias`),
    );
    x = maxPool(x, layer === 'conv5' ? 1 : 2);
  }
  const out = pointwiseConv(x, weight(weights, 'conv8/filters'), weight(weights, 'conv8/bias'));

  const cells = out.height;
  const correctX = size / scaledWidth;
  const correctY = size / scaledHeight;
  const found: FaceBox[] = [];
  for (let row = 0; row < cells; row++) {
    for (let col = 0; col < cells; col++) {
      for (let anchor = 0; anchor < ANCHORS.length; anchor++) {
        const at = (row * cells + col) * out.channels + anchor * 5;
        const score = sigmoid(out.data[at + 4] as number);
        if (score <= scoreThreshold) continue;
        const [aw, ah] = ANCHORS[anchor] as [number, number];
        const cx = ((col + sigmoid(out.data[at] as number)) / cells) * correctX;
        const cy = ((row + sigmoid(out.data[at + 1] as number)) / cells) * correctY;
        const width = ((Math.exp(out.data[at + 2] as number) * aw) / cells) * correctX;
        const height = ((Math.exp(out.data[at + 3] as number) * ah) / cells) * correctY;
        found.push({ score, x: cx - width / 2, y: cy - height / 2, width, height });
      }
    }
  }
  found.sort((a, b) => b.score - a.score);
  const kept: FaceBox[] = [];
  for (const box of found) if (kept.every((other) => iou(box, other) <= 0.4)) kept.push(box);
  return kept;
}

/** What auto-capture of a selfie needs to know about a frame. */
export type FaceJudgement = 'present' | 'tooSmall' | 'absent';

/**
 * A face is large enough when its box is at least this share of the picture's shorter side: a head filling the
 * selfie oval measures ~0.45 of it, one that fills two thirds of the oval 0.3. (Smaller faces than ~0.25 are
 * mostly not found at all at the detector's 224-pixel input: those frames are 'absent'.)
 */
export const MIN_FACE_SIDE = 0.3;

/** Whether a frame of `width` × `height` pixels shows a face large enough for a selfie. */
export function judgeFaces(
  faces: readonly FaceBox[],
  width: number,
  height: number,
  minSide = MIN_FACE_SIDE,
): FaceJudgement {
  if (faces.length === 0) return 'absent';
  const shorter = Math.min(width, height);
  return faces.some((face) => (face.width * width) / shorter >= minSide) ? 'present' : 'tooSmall';
}
