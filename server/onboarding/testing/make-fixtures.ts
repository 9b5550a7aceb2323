// Generates the image fixtures of the onboarding tests into tests/fixtures/images/ with node built-ins only:
// a drawn "document" scene (dark shapes and rows of character-like strokes on a light ground, ±1 grey-level
// noise) as sharp and heavily blurred PNG and JPEG, a second sharp scene for selfies, and hostile files
// (a PNG and a JPEG whose headers claim a pixel flood, a GIF, a tiny JPEG). Deterministic: the same bytes on
// every run. The JPEGs come from the small baseline encoder below (greyscale, one uniform quantisation table,
// fixed-length Huffman codes): valid baseline JPEG, only not size-optimised.
//
//   npx tsx server/onboarding/testing/make-fixtures.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

export const FIXTURES_DIR = fileURLToPath(new URL('../../../tests/fixtures/images/', import.meta.url));

export interface Gray {
  width: number;
  height: number;
  pixels: Float32Array;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A light ground with dark blocks and rows of 3-px strokes, like a card with a photo and printed text. */
export function drawScene(width: number, height: number, seed: number): Gray {
  const random = mulberry32(seed);
  const pixels = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels[y * width + x] = 200 + (30 * x) / width;
  }
  const fill = (x0: number, y0: number, w: number, h: number, value: number) => {
    for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y++) {
      for (let x = Math.max(0, x0); x < Math.min(width, x0 + w); x++) pixels[y * width + x] = value;
    }
  };
  for (let i = 0; i < 6; i++) {
    const w = 20 + Math.floor(random() * 60);
    const h = 20 + Math.floor(random() * 60);
    fill(Math.floor(random() * (width - w)), Math.floor(random() * (height - h)), w, h, 40 + random() * 80);
  }
  for (let line = 24; line < height - 16; line += 22) {
    let x = 8 + Math.floor(random() * 20);
    while (x < width - 12) {
      const strokes = 2 + Math.floor(random() * 6);
      for (let s = 0; s < strokes && x < width - 12; s++, x += 6) fill(x, line, 3, 10, 30);
      x += 10;
    }
  }
  return { width, height, pixels };
}

/** Three passes of a separable box blur of the given radius (close to a Gaussian of σ ≈ radius). */
export function blur(image: Gray, radius: number): Gray {
  const { width, height } = image;
  let source = Float32Array.from(image.pixels);
  let target = new Float32Array(width * height);
  const at = (x: number, y: number) =>
    source[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))] ?? 0;
  for (let pass = 0; pass < 3; pass++) {
    for (const horizontal of [true, false]) {
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          let sum = 0;
          for (let d = -radius; d <= radius; d++) sum += horizontal ? at(x + d, y) : at(x, y + d);
          target[y * width + x] = sum / (2 * radius + 1);
        }
      }
      [source, target] = [target, source];
    }
  }
  return { width, height, pixels: source };
}

/** Adds uniform integer noise in [-amplitude, amplitude] and rounds to 8 bits. */
export function quantise(image: Gray, amplitude: number, seed: number): Uint8Array {
  const random = mulberry32(seed);
  return Uint8Array.from(image.pixels, (value) =>
    Math.min(255, Math.max(0, Math.round(value + Math.floor(random() * (2 * amplitude + 1)) - amplitude))),
  );
}

// ── PNG ────────────────────────────────────────────────────────────────────────────────────────────────

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(kind: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(kind, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function pngHeader(width: number, height: number, colorType: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colorType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
  ]);
}

/** 8-bit PNG, grey (1 channel) or RGB (3 channels), each row with the Sub filter. */
export function encodePng(width: number, height: number, samples: Uint8Array, channels: 1 | 3 = 1): Buffer {
  const stride = width * channels;
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 1;
    for (let x = 0; x < stride; x++) {
      const value = samples[y * stride + x] ?? 0;
      const left = x >= channels ? (samples[y * stride + x - channels] ?? 0) : 0;
      raw[y * (stride + 1) + 1 + x] = (value - left) & 0xff;
    }
  }
  return Buffer.concat([
    pngHeader(width, height, channels === 1 ? 0 : 2),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

// ── Baseline JPEG (greyscale) ──────────────────────────────────────────────────────────────────────────

const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7,
  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46,
  53, 60, 61, 54, 47, 55, 62, 63,
];
const AC_SYMBOLS = [0x00, 0xf0];
for (let r = 0; r < 16; r++) for (let s = 1; s <= 10; s++) AC_SYMBOLS.push((r << 4) | s);
const AC_CODE = new Map(AC_SYMBOLS.map((symbol, i) => [symbol, i]));

class BitWriter {
  private readonly out: number[] = [];
  private current = 0;
  private count = 0;

  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.current = (this.current << 1) | ((value >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }

  private flushByte(): void {
    this.out.push(this.current);
    if (this.current === 0xff) this.out.push(0);
    this.current = 0;
    this.count = 0;
  }

  finish(): Buffer {
    while (this.count !== 0) this.write(1, 1);
    return Buffer.from(this.out);
  }
}

function category(value: number): number {
  let magnitude = Math.abs(value);
  let bits = 0;
  while (magnitude > 0) {
    bits++;
    magnitude >>= 1;
  }
  return bits;
}

function segment(marker: number, data: number[] | Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, Buffer.from(data)]);
}

/** Baseline greyscale JPEG: orthonormal DCT, one uniform quantiser, DC codes of 4 bits and AC codes of 8. */
export function encodeJpeg(width: number, height: number, samples: Uint8Array, quantiser = 4): Buffer {
  const writer = new BitWriter();
  const block = new Float64Array(64);
  const rows = new Float64Array(64);
  const basis = (u: number, x: number) =>
    ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  let previousDc = 0;
  for (let by = 0; by < height; by += 8) {
    for (let bx = 0; bx < width; bx += 8) {
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          const sy = Math.min(height - 1, by + y);
          const sx = Math.min(width - 1, bx + x);
          block[y * 8 + x] = (samples[sy * width + sx] ?? 0) - 128;
        }
      }
      for (let y = 0; y < 8; y++) {
        for (let u = 0; u < 8; u++) {
          let sum = 0;
          for (let x = 0; x < 8; x++) sum += basis(u, x) * (block[y * 8 + x] ?? 0);
          rows[y * 8 + u] = sum;
        }
      }
      const coefficients: number[] = [];
      for (let k = 0; k < 64; k++) {
        const natural = ZIGZAG[k] ?? 0;
        const v = natural >> 3;
        const u = natural & 7;
        let sum = 0;
        for (let y = 0; y < 8; y++) sum += basis(v, y) * (rows[y * 8 + u] ?? 0);
        coefficients.push(Math.round(sum / quantiser));
      }
      const dc = coefficients[0] ?? 0;
      const diff = dc - previousDc;
      previousDc = dc;
      const dcSize = category(diff);
      writer.write(dcSize, 4);
      if (dcSize > 0) writer.write(diff < 0 ? diff + (1 << dcSize) - 1 : diff, dcSize);
      let run = 0;
      for (let k = 1; k < 64; k++) {
        const value = coefficients[k] ?? 0;
        if (value === 0) {
          run++;
          continue;
        }
        while (run > 15) {
          writer.write(AC_CODE.get(0xf0) ?? 0, 8);
          run -= 16;
        }
        const size = category(value);
        writer.write(AC_CODE.get((run << 4) | size) ?? 0, 8);
        writer.write(value < 0 ? value + (1 << size) - 1 : value, size);
        run = 0;
      }
      if (run > 0) writer.write(AC_CODE.get(0x00) ?? 0, 8);
    }
  }
  const dcCounts = new Array(16).fill(0);
  dcCounts[3] = 12;
  const acCounts = new Array(16).fill(0);
  acCounts[7] = AC_SYMBOLS.length;
  const sof = [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0];
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    segment(0xdb, [0, ...new Array(64).fill(quantiser)]),
    segment(0xc0, sof),
    segment(0xc4, [0x00, ...dcCounts, ...Array.from({ length: 12 }, (_, i) => i)]),
    segment(0xc4, [0x10, ...acCounts, ...AC_SYMBOLS]),
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    writer.finish(),
    Buffer.from([0xff, 0xd9]),
  ]);
}

// ── The fixture set ────────────────────────────────────────────────────────────────────────────────────

/**
 * A header that claims width × height, padded past the 5 kB minimum with a comment/text segment. The JPEG
 * carries its Huffman tables and scan header (libjpeg reads the header up to the first scan, as a real
 * pixel-flood file would have them) and a few bytes of scan data.
 */
function floodJpeg(width: number, height: number): Buffer {
  const sof = [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0];
  const dcCounts = new Array(16).fill(0);
  dcCounts[3] = 12;
  const acCounts = new Array(16).fill(0);
  acCounts[7] = AC_SYMBOLS.length;
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xfe, Buffer.alloc(6000, 0x20)),
    segment(0xdb, [0, ...new Array(64).fill(1)]),
    segment(0xc0, sof),
    segment(0xc4, [0x00, ...dcCounts, ...Array.from({ length: 12 }, (_, i) => i)]),
    segment(0xc4, [0x10, ...acCounts, ...AC_SYMBOLS]),
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    Buffer.alloc(16, 0),
    Buffer.from([0xff, 0xd9]),
  ]);
}

function floodPng(width: number, height: number): Buffer {
  return Buffer.concat([
    pngHeader(width, height, 0),
    pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(6000, 0x20)])),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

export function makeFixtureSet(): Record<string, Buffer> {
  const [w, h] = [320, 240];
  const document = drawScene(w, h, 1);
  const selfie = drawScene(w, h, 2);
  const sharp = quantise(document, 1, 11);
  const blurred = quantise(blur(document, 6), 1, 12);
  const face = quantise(selfie, 1, 13);
  return {
    'document.png': encodePng(w, h, sharp),
    'document-blurred.png': encodePng(w, h, blurred),
    'selfie.png': encodePng(w, h, face),
    'document.jpg': encodeJpeg(w, h, sharp),
    'document-blurred.jpg': encodeJpeg(w, h, blurred),
    'selfie.jpg': encodeJpeg(w, h, face),
    'tiny.jpg': encodeJpeg(16, 16, quantise(drawScene(16, 16, 3), 1, 14)),
    'flood.png': floodPng(20_000, 20_000),
    'flood.jpg': floodJpeg(60_000, 60_000),
    'not-an-image.gif': Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(6000, 1)]),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(FIXTURES_DIR, { recursive: true });
  for (const [name, bytes] of Object.entries(makeFixtureSet())) {
    writeFileSync(join(FIXTURES_DIR, name), bytes);
    console.log(`${name} ${bytes.length} bytes`);
  }
}
