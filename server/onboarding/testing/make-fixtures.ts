// Generates the image fixtures of the onboarding tests into tests/fixtures/images/: a drawn "document" scene (dark
// shapes and rows of character-like strokes on a light ground, ±1 grey-level noise) as sharp and heavily blurred
// PNG and JPEG, a second sharp scene for selfies, encoded by sharp; and hostile files (a PNG and a JPEG whose
// headers claim a pixel flood, a GIF, a tiny JPEG). Deterministic: the same bytes on every run of one sharp
// version (a new libvips may encode other bytes: run this again and commit them).
// The flood files, and the PNG chunks registration-images.test.ts builds its hostile PNGs from, are written by hand
// here: no encoder writes a header that claims 20,000 × 20,000 pixels or more over a few bytes of pixel data.
//
//   npx tsx server/onboarding/testing/make-fixtures.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

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

/** 8-bit samples, grey (1 channel) or RGB (3 channels), as a PNG. */
export function encodePng(
  width: number,
  height: number,
  samples: Uint8Array,
  channels: 1 | 3 = 1,
): Promise<Buffer> {
  return sharp(samples, { raw: { width, height, channels } })
    .toColourspace(channels === 1 ? 'b-w' : 'srgb')
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer();
}

// ── JPEG ───────────────────────────────────────────────────────────────────────────────────────────────

/** 8-bit grey samples as a baseline greyscale JPEG of that quality (1–100). */
export function encodeJpeg(
  width: number,
  height: number,
  samples: Uint8Array,
  quality = 95,
): Promise<Buffer> {
  return sharp(samples, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .jpeg({ quality })
    .toBuffer();
}

// ── Hostile files ──────────────────────────────────────────────────────────────────────────────────────

function segment(marker: number, data: number[] | Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, Buffer.from(data)]);
}

/** The AC symbols of a baseline Huffman table: end of block, sixteen zeros, and every run/size pair. */
const AC_SYMBOLS = [0x00, 0xf0];
for (let r = 0; r < 16; r++) for (let s = 1; s <= 10; s++) AC_SYMBOLS.push((r << 4) | s);

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

// ── The fixture set ────────────────────────────────────────────────────────────────────────────────────

export async function makeFixtureSet(): Promise<Record<string, Buffer>> {
  const [w, h] = [320, 240];
  const document = drawScene(w, h, 1);
  const selfie = drawScene(w, h, 2);
  const crisp = quantise(document, 1, 11);
  const blurred = quantise(blur(document, 6), 1, 12);
  const face = quantise(selfie, 1, 13);
  return {
    'document.png': await encodePng(w, h, crisp),
    'document-blurred.png': await encodePng(w, h, blurred),
    'selfie.png': await encodePng(w, h, face),
    'document.jpg': await encodeJpeg(w, h, crisp),
    'document-blurred.jpg': await encodeJpeg(w, h, blurred),
    'selfie.jpg': await encodeJpeg(w, h, face),
    'tiny.jpg': await encodeJpeg(16, 16, quantise(drawScene(16, 16, 3), 1, 14)),
    'flood.png': floodPng(20_000, 20_000),
    'flood.jpg': floodJpeg(60_000, 60_000),
    'not-an-image.gif': Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(6000, 1)]),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(FIXTURES_DIR, { recursive: true });
  for (const [name, bytes] of Object.entries(await makeFixtureSet())) {
    writeFileSync(join(FIXTURES_DIR, name), bytes);
    console.log(`${name} ${bytes.length} bytes`);
  }
}
