// Image checks of the reference biometric engine, with node built-ins only (spec §5: registration images are
// jpg or png, 5 kB – 5 MB). The type comes from the magic bytes, never from a header or a file name; the pixel
// size from the JPEG SOF / PNG IHDR header, checked against a pixel-flood limit before anything is decoded.
//
// Sharpness, one measure for both formats: the high-frequency share of the 8×8 DCT energy of the luminance in
// the blocks that carry detail. A sharp edge spreads energy up to the highest frequencies of its block (a step
// puts ~8 % of its AC energy at u+v ≥ 4); a blurred edge is a smooth ramp inside 8 px and keeps almost all of
// it in the first few coefficients. Each block's high-frequency energy is first reduced by what sensor noise
// alone would put there. Measured on the Chromium-drawn fixtures of tests/fixtures/generated (JPEG q90,
// 1280×960): sharp document 164 ‰, sharp selfie 107 ‰, 12 MP document 106 ‰, the same document blurred 9 px
// 0 ‰ (1.7 ‰ before the noise allowance); the threshold is 10 ‰.
//
// For JPEG the coefficients are read straight from the baseline Huffman scan (entropy decoding and
// dequantisation, no inverse DCT); for PNG the image is inflated with node:zlib, unfiltered, and each 8×8
// luminance block goes through the same orthonormal DCT that JPEG uses. Progressive or arithmetic-coded JPEG
// and interlaced or low-bit-depth PNG are not judged (score null: 'not computed').
import { inflateSync } from 'node:zlib';

export const IMAGE_MIN_BYTES = 5 * 1024;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Refuse anything that claims more pixels than this (a small file can declare a huge canvas). */
export const MAX_PIXELS = 40_000_000;
/** Below this high-frequency share (per mille of the AC energy in detailed blocks) an image counts as blurred. */
export const BLUR_THRESHOLD = 10;
/** A block takes part when its AC energy reaches an RMS deviation of 4 grey levels over its 64 pixels. */
const DETAIL_FLOOR = 64 * 4 * 4;
/**
 * High-frequency energy each block may hold from sensor noise alone (σ = 2 grey levels over the 48
 * coefficients at u+v ≥ 4); only what exceeds it counts, so a noisy blurred photo stays blurred.
 */
const NOISE_HIGH = 48 * 2 * 2;
/** Fewer detailed blocks than this (per mille of all blocks, and at least 8) means a featureless image. */
const MIN_DETAIL_BLOCKS_PER_MILLE = 2;

export type ImageFormat = 'jpeg' | 'png';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

export type ImageRefusalCode =
  | 'image_wrong_type'
  | 'image_too_small'
  | 'image_too_large'
  | 'image_too_many_pixels'
  | 'image_unreadable';

export interface Sharpness {
  /** High-frequency share of the AC energy in the detailed blocks, per mille; null when not computed. */
  score: number | null;
  blurred: boolean | null;
  detailBlocks: number;
  blocks: number;
  note?: string;
}

export type ImageCheck =
  | { ok: true; header: ImageHeader; sharpness: Sharpness }
  | { ok: false; code: ImageRefusalCode; detail: string };

export class ImageDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageDecodeError';
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The type by the first bytes: JPEG FF D8 FF, PNG 89 50 4E 47 0D 0A 1A 0A. */
export function sniffImageType(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return 'png';
  return undefined;
}

/** All checks of an uploaded image: type, byte bounds, header, pixel flood, then sharpness. */
export function checkImage(bytes: Uint8Array): ImageCheck {
  const format = sniffImageType(bytes);
  if (!format)
    return { ok: false, code: 'image_wrong_type', detail: 'The image must be a JPEG or PNG file.' };
  if (bytes.length < IMAGE_MIN_BYTES) {
    return {
      ok: false,
      code: 'image_too_small',
      detail: `The image is smaller than ${IMAGE_MIN_BYTES} bytes.`,
    };
  }
  if (bytes.length > IMAGE_MAX_BYTES) {
    return {
      ok: false,
      code: 'image_too_large',
      detail: `The image is larger than ${IMAGE_MAX_BYTES} bytes.`,
    };
  }
  let header: ImageHeader;
  try {
    header = format === 'png' ? readPngHeader(bytes) : readJpegHeader(bytes);
  } catch (error) {
    return {
      ok: false,
      code: 'image_unreadable',
      detail: `The image header is not readable: ${message(error)}`,
    };
  }
  if (header.width * header.height > MAX_PIXELS) {
    return {
      ok: false,
      code: 'image_too_many_pixels',
      detail: `The image is ${header.width}×${header.height}, more than ${MAX_PIXELS} pixels.`,
    };
  }
  let sharpness: Sharpness;
  try {
    sharpness = format === 'png' ? pngSharpness(bytes) : jpegSharpness(bytes);
  } catch (error) {
    return {
      ok: false,
      code: 'image_unreadable',
      detail: `The image data is not readable: ${message(error)}`,
    };
  }
  return { ok: true, header: { format, width: header.width, height: header.height }, sharpness };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// ── DCT statistics shared by both formats ──────────────────────────────────────────────────────────────

/** Zigzag index → natural index (row * 8 + column). */
const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7,
  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46,
  53, 60, 61, 54, 47, 55, 62, 63,
];
/** Zigzag index → whether u + v ≥ 4 (the high frequencies of the measure). */
const HIGH = ZIGZAG.map((natural) => (natural >> 3) + (natural & 7) >= 4);

class BlockStats {
  blocks = 0;
  detailBlocks = 0;
  ac = 0;
  high = 0;

  /** coefficients in zigzag order, dequantised, orthonormal scale. */
  add(coefficients: ArrayLike<number>): void {
    this.blocks++;
    let ac = 0;
    let high = 0;
    for (let k = 1; k < 64; k++) {
      const c = coefficients[k] ?? 0;
      const e = c * c;
      ac += e;
      if (HIGH[k]) high += e;
    }
    if (ac < DETAIL_FLOOR) return;
    this.detailBlocks++;
    this.ac += ac;
    this.high += Math.max(0, high - NOISE_HIGH);
  }

  result(): Sharpness {
    const base = { detailBlocks: this.detailBlocks, blocks: this.blocks };
    const needed = Math.max(8, Math.ceil((this.blocks * MIN_DETAIL_BLOCKS_PER_MILLE) / 1000));
    if (this.detailBlocks < needed)
      return { ...base, score: 0, blurred: true, note: 'no detail in the image' };
    const score = Math.round((this.high / this.ac) * 10_000) / 10;
    return { ...base, score, blurred: score < BLUR_THRESHOLD };
  }
}

const notComputed = (note: string): Sharpness => ({
  score: null,
  blurred: null,
  detailBlocks: 0,
  blocks: 0,
  note,
});

// ── PNG ────────────────────────────────────────────────────────────────────────────────────────────────

interface PngHeader extends ImageHeader {
  bitDepth: number;
  colorType: number;
  interlace: number;
}

function u32(bytes: Uint8Array, at: number): number {
  if (at + 4 > bytes.length) throw new ImageDecodeError('truncated');
  return (
    (((bytes[at] ?? 0) << 24) |
      ((bytes[at + 1] ?? 0) << 16) |
      ((bytes[at + 2] ?? 0) << 8) |
      (bytes[at + 3] ?? 0)) >>>
    0
  );
}

function u16(bytes: Uint8Array, at: number): number {
  if (at + 2 > bytes.length) throw new ImageDecodeError('truncated');
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

export function readPngHeader(bytes: Uint8Array): PngHeader {
  // Signature (8), then the IHDR chunk: length (4) = 13, type (4), width, height, depth, colour, …, interlace.
  if (u32(bytes, 8) !== 13 || ascii(bytes, 12, 4) !== 'IHDR') throw new ImageDecodeError('PNG without IHDR');
  const width = u32(bytes, 16);
  const height = u32(bytes, 20);
  if (width === 0 || height === 0) throw new ImageDecodeError('PNG of zero size');
  const bitDepth = bytes[24] ?? 0;
  const colorType = bytes[25] ?? 0;
  const interlace = bytes[28] ?? 0;
  if (![0, 2, 3, 4, 6].includes(colorType)) throw new ImageDecodeError('PNG colour type unknown');
  return { format: 'png', width, height, bitDepth, colorType, interlace };
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Luminance (BT.601) of an 8- or 16-bit, non-interlaced PNG. */
export function decodePngLuma(bytes: Uint8Array): { width: number; height: number; luma: Float32Array } {
  const header = readPngHeader(bytes);
  const { width, height, bitDepth, colorType } = header;
  if (header.interlace !== 0) throw new ImageDecodeError('interlaced PNG');
  if (bitDepth !== 8 && !(bitDepth === 16 && colorType !== 3)) throw new ImageDecodeError('PNG bit depth');
  const channels = CHANNELS[colorType] ?? 1;
  const bpp = (channels * bitDepth) / 8;
  const stride = width * bpp;
  const idat: Uint8Array[] = [];
  let palette: Uint8Array | undefined;
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = u32(bytes, at);
    const kind = ascii(bytes, at + 4, 4);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (data.length !== length) throw new ImageDecodeError('truncated chunk');
    if (kind === 'IDAT') idat.push(data);
    else if (kind === 'PLTE') palette = data;
    else if (kind === 'IEND') break;
    at += 12 + length;
  }
  if (colorType === 3 && !palette) throw new ImageDecodeError('PNG palette missing');
  const expected = height * (stride + 1);
  // maxOutputLength caps a decompression bomb at the size the header announces.
  const raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  if (raw.length < expected) throw new ImageDecodeError('PNG data shorter than its header says');

  const luma = new Float32Array(width * height);
  let previous = new Uint8Array(stride);
  let current = new Uint8Array(stride);
  const sample = (row: Uint8Array, i: number) =>
    bitDepth === 16 ? (row[i * 2] ?? 0) + (row[i * 2 + 1] ?? 0) / 256 : (row[i] ?? 0);
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1);
    const filter = raw[start];
    for (let x = 0; x < stride; x++) {
      const value = raw[start + 1 + x] ?? 0;
      const left = x >= bpp ? (current[x - bpp] ?? 0) : 0;
      const up = previous[x] ?? 0;
      const upLeft = x >= bpp ? (previous[x - bpp] ?? 0) : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      } else if (filter !== 0) throw new ImageDecodeError('PNG filter unknown');
      current[x] = (value + predictor) & 0xff;
    }
    const samplesPerPixel = channels;
    for (let x = 0; x < width; x++) {
      const s = x * samplesPerPixel;
      let value: number;
      if (colorType === 3) {
        const index = (current[x] ?? 0) * 3;
        value =
          0.299 * (palette?.[index] ?? 0) +
          0.587 * (palette?.[index + 1] ?? 0) +
          0.114 * (palette?.[index + 2] ?? 0);
      } else if (colorType === 2 || colorType === 6) {
        value = 0.299 * sample(current, s) + 0.587 * sample(current, s + 1) + 0.114 * sample(current, s + 2);
      } else {
        value = sample(current, s);
      }
      luma[y * width + x] = value;
    }
    [previous, current] = [current, previous];
  }
  return { width, height, luma };
}

/** cos((2x + 1) u π / 16) · C(u) / 2, the orthonormal 8-point DCT-II basis that JPEG uses. */
const BASIS = (() => {
  const table = new Float64Array(64);
  for (let u = 0; u < 8; u++) {
    const c = u === 0 ? Math.SQRT1_2 : 1;
    for (let x = 0; x < 8; x++) table[u * 8 + x] = (c / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  }
  return table;
})();

function pngSharpness(bytes: Uint8Array): Sharpness {
  const header = readPngHeader(bytes);
  if (header.interlace !== 0) return notComputed('interlaced PNG is not judged');
  if (header.bitDepth < 8) return notComputed('PNG below 8 bits per sample is not judged');
  const { width, height, luma } = decodePngLuma(bytes);
  const stats = new BlockStats();
  const rows = new Float64Array(64);
  const natural = new Float64Array(64);
  const zigzag = new Float64Array(64);
  for (let by = 0; by + 8 <= height; by += 8) {
    for (let bx = 0; bx + 8 <= width; bx += 8) {
      // Rows first, then columns: F(v, u) = Σy Σx basis(v, y) basis(u, x) f(y, x).
      for (let y = 0; y < 8; y++) {
        for (let u = 0; u < 8; u++) {
          let sum = 0;
          for (let x = 0; x < 8; x++) sum += (BASIS[u * 8 + x] ?? 0) * (luma[(by + y) * width + bx + x] ?? 0);
          rows[y * 8 + u] = sum;
        }
      }
      for (let v = 0; v < 8; v++) {
        for (let u = 0; u < 8; u++) {
          let sum = 0;
          for (let y = 0; y < 8; y++) sum += (BASIS[v * 8 + y] ?? 0) * (rows[y * 8 + u] ?? 0);
          natural[v * 8 + u] = sum;
        }
      }
      for (let k = 0; k < 64; k++) zigzag[k] = natural[ZIGZAG[k] ?? 0] ?? 0;
      stats.add(zigzag);
    }
  }
  return stats.result();
}

// ── JPEG ───────────────────────────────────────────────────────────────────────────────────────────────

const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

interface JpegComponent {
  id: number;
  h: number;
  v: number;
  tq: number;
  blocksPerLine: number;
  blocksPerColumn: number;
}

interface Huffman {
  maxCode: Int32Array;
  valPtr: Int32Array;
  minCode: Int32Array;
  values: Uint8Array;
}

interface JpegFrame extends ImageHeader {
  marker: number;
  components: JpegComponent[];
  hMax: number;
  vMax: number;
}

/** Walks the marker segments up to the first SOF and returns the frame header. */
export function readJpegHeader(bytes: Uint8Array): JpegFrame {
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) throw new ImageDecodeError('JPEG marker expected');
    let marker = bytes[at + 1] ?? 0;
    while (marker === 0xff) marker = bytes[++at + 1] ?? 0;
    at += 2;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (marker === 0xd9 || marker === 0xda) break;
    const length = u16(bytes, at);
    if (length < 2 || at + length > bytes.length) throw new ImageDecodeError('JPEG segment truncated');
    if (SOF_MARKERS.has(marker)) return parseFrame(bytes, at, marker);
    at += length;
  }
  throw new ImageDecodeError('JPEG without a frame header');
}

function parseFrame(bytes: Uint8Array, at: number, marker: number): JpegFrame {
  const height = u16(bytes, at + 3);
  const width = u16(bytes, at + 5);
  const count = bytes[at + 7] ?? 0;
  if (width === 0 || height === 0) throw new ImageDecodeError('JPEG of zero (or DNL-defined) size');
  if (count < 1 || count > 4) throw new ImageDecodeError('JPEG component count');
  const components: JpegComponent[] = [];
  for (let i = 0; i < count; i++) {
    const base = at + 8 + i * 3;
    const sampling = bytes[base + 1] ?? 0;
    const h = sampling >> 4;
    const v = sampling & 15;
    if (h < 1 || h > 4 || v < 1 || v > 4) throw new ImageDecodeError('JPEG sampling factors');
    components.push({
      id: bytes[base] ?? 0,
      h,
      v,
      tq: bytes[base + 2] ?? 0,
      blocksPerLine: 0,
      blocksPerColumn: 0,
    });
  }
  const hMax = Math.max(...components.map((c) => c.h));
  const vMax = Math.max(...components.map((c) => c.v));
  for (const c of components) {
    c.blocksPerLine = Math.ceil(Math.ceil((width * c.h) / hMax) / 8);
    c.blocksPerColumn = Math.ceil(Math.ceil((height * c.v) / vMax) / 8);
  }
  return { format: 'jpeg', width, height, marker, components, hMax, vMax };
}

function buildHuffman(counts: Uint8Array, values: Uint8Array): Huffman {
  const maxCode = new Int32Array(18).fill(-1);
  const valPtr = new Int32Array(17);
  const minCode = new Int32Array(17);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    const n = counts[length - 1] ?? 0;
    if (n > 0) {
      valPtr[length] = k;
      minCode[length] = code;
      code += n;
      k += n;
      maxCode[length] = code - 1;
    }
    code <<= 1;
  }
  maxCode[17] = 0x7fffffff;
  return { maxCode, valPtr, minCode, values };
}

class BitReader {
  private bit = 0;
  private current = 0;
  /** Set when the scan data ends (a marker other than RSTn); further bits read as zeros. */
  ended = false;

  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
  ) {}

  read(): number {
    if (this.bit === 0) {
      if (this.ended || this.at >= this.bytes.length) {
        this.ended = true;
        return 0;
      }
      const byte = this.bytes[this.at] ?? 0;
      if (byte === 0xff) {
        const next = this.bytes[this.at + 1] ?? 0;
        if (next !== 0) {
          this.ended = true;
          return 0;
        }
        this.at += 2;
      } else {
        this.at++;
      }
      this.current = byte;
      this.bit = 8;
    }
    this.bit--;
    return (this.current >> this.bit) & 1;
  }

  receive(length: number): number {
    let value = 0;
    for (let i = 0; i < length; i++) value = (value << 1) | this.read();
    return value;
  }

  decode(table: Huffman): number {
    let code = this.read();
    let length = 1;
    while (code > (table.maxCode[length] ?? -1)) {
      code = (code << 1) | this.read();
      length++;
      if (length > 16) throw new ImageDecodeError('bad Huffman code');
    }
    const index = (table.valPtr[length] ?? 0) + code - (table.minCode[length] ?? 0);
    return table.values[index] ?? 0;
  }

  /** Byte-aligns and skips an RSTn marker, as a restart interval ends. */
  restart(): void {
    this.bit = 0;
    this.ended = false;
    while (this.at + 1 < this.bytes.length) {
      if (
        this.bytes[this.at] === 0xff &&
        (this.bytes[this.at + 1] ?? 0) >= 0xd0 &&
        (this.bytes[this.at + 1] ?? 0) <= 0xd7
      ) {
        this.at += 2;
        return;
      }
      if (this.bytes[this.at] === 0xff && this.bytes[this.at + 1] !== 0) return;
      this.at++;
    }
  }
}

function extend(value: number, length: number): number {
  return length === 0 ? 0 : value < 1 << (length - 1) ? value - (1 << length) + 1 : value;
}

/** Sharpness from the luminance DCT coefficients of a baseline (Huffman, sequential) JPEG. */
function jpegSharpness(bytes: Uint8Array): Sharpness {
  const frame = readJpegHeader(bytes);
  if (frame.marker !== 0xc0 && frame.marker !== 0xc1) {
    return notComputed('only baseline and extended sequential Huffman JPEG is judged');
  }
  const quant: Uint16Array[] = [];
  const dcTables: Huffman[] = [];
  const acTables: Huffman[] = [];
  const stats = new BlockStats();
  const luma = frame.components[0];
  let restartInterval = 0;
  let at = 2;
  let scans = 0;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) {
      at++;
      continue;
    }
    const marker = bytes[at + 1] ?? 0;
    at += 2;
    if (marker === 0xff) {
      at--;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x00 || marker === 0x01) continue;
    if (marker === 0xd9) break;
    const length = u16(bytes, at);
    const end = at + length;
    if (end > bytes.length) throw new ImageDecodeError('JPEG segment truncated');
    if (marker === 0xdb) {
      for (let p = at + 2; p < end; ) {
        const pq = (bytes[p] ?? 0) >> 4;
        const tq = (bytes[p] ?? 0) & 15;
        const table = new Uint16Array(64);
        for (let k = 0; k < 64; k++) table[k] = pq ? u16(bytes, p + 1 + k * 2) : (bytes[p + 1 + k] ?? 0);
        quant[tq] = table;
        p += 1 + 64 * (pq ? 2 : 1);
      }
    } else if (marker === 0xc4) {
      for (let p = at + 2; p < end; ) {
        const tc = (bytes[p] ?? 0) >> 4;
        const th = (bytes[p] ?? 0) & 15;
        const counts = bytes.subarray(p + 1, p + 17);
        const total = counts.reduce((sum, n) => sum + n, 0);
        const table = buildHuffman(counts, bytes.slice(p + 17, p + 17 + total));
        if (tc === 0) dcTables[th] = table;
        else acTables[th] = table;
        p += 17 + total;
      }
    } else if (marker === 0xdd) {
      restartInterval = u16(bytes, at + 2);
    } else if (marker === 0xda) {
      at = decodeScan(bytes, at, frame, { quant, dcTables, acTables, restartInterval, stats, luma });
      scans++;
      continue;
    }
    at = end;
  }
  if (scans === 0) throw new ImageDecodeError('JPEG without scan data');
  return stats.result();
}

interface ScanContext {
  quant: Uint16Array[];
  dcTables: Huffman[];
  acTables: Huffman[];
  restartInterval: number;
  stats: BlockStats;
  luma: JpegComponent | undefined;
}

function decodeScan(bytes: Uint8Array, at: number, frame: JpegFrame, ctx: ScanContext): number {
  const length = u16(bytes, at);
  const count = bytes[at + 2] ?? 0;
  const scanComponents: { component: JpegComponent; dc: Huffman; ac: Huffman; pred: number }[] = [];
  for (let i = 0; i < count; i++) {
    const id = bytes[at + 3 + i * 2];
    const tables = bytes[at + 4 + i * 2] ?? 0;
    const component = frame.components.find((c) => c.id === id);
    const dc = ctx.dcTables[tables >> 4];
    const ac = ctx.acTables[tables & 15];
    if (!component || !dc || !ac) throw new ImageDecodeError('JPEG scan refers to a missing table');
    scanComponents.push({ component, dc, ac, pred: 0 });
  }
  const reader = new BitReader(bytes, at + length);
  const coefficients = new Float64Array(64);
  const decodeBlock = (entry: (typeof scanComponents)[number]) => {
    coefficients.fill(0);
    const t = reader.decode(entry.dc);
    entry.pred += t ? extend(reader.receive(t), t) : 0;
    for (let k = 1; k < 64; ) {
      const rs = reader.decode(entry.ac);
      const r = rs >> 4;
      const s = rs & 15;
      if (s === 0) {
        if (r !== 15) break;
        k += 16;
        continue;
      }
      k += r;
      if (k > 63) throw new ImageDecodeError('JPEG coefficient out of range');
      coefficients[k] = extend(reader.receive(s), s);
      k++;
    }
    if (entry.component === ctx.luma) {
      const q = ctx.quant[entry.component.tq];
      if (!q) throw new ImageDecodeError('JPEG quantisation table missing');
      for (let k = 1; k < 64; k++) coefficients[k] = (coefficients[k] ?? 0) * (q[k] ?? 1);
      ctx.stats.add(coefficients);
    }
  };

  const single = scanComponents.length === 1 ? scanComponents[0] : undefined;
  const mcusPerLine = single ? single.component.blocksPerLine : Math.ceil(frame.width / (8 * frame.hMax));
  const mcusPerColumn = single
    ? single.component.blocksPerColumn
    : Math.ceil(frame.height / (8 * frame.vMax));
  const total = mcusPerLine * mcusPerColumn;
  for (let mcu = 0; mcu < total; mcu++) {
    if (ctx.restartInterval > 0 && mcu > 0 && mcu % ctx.restartInterval === 0) {
      reader.restart();
      for (const entry of scanComponents) entry.pred = 0;
    }
    if (single) {
      decodeBlock(single);
    } else {
      for (const entry of scanComponents) {
        for (let b = 0; b < entry.component.h * entry.component.v; b++) decodeBlock(entry);
      }
    }
    if (reader.ended) break;
  }
  // Continue after the entropy-coded data: the next marker that is not a stuffed byte or RSTn.
  let p = reader.at;
  while (p + 1 < bytes.length) {
    const next = bytes[p + 1] ?? 0;
    if (bytes[p] === 0xff && next !== 0 && !(next >= 0xd0 && next <= 0xd7)) break;
    p++;
  }
  return p;
}
