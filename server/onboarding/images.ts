// The one check of every image that enters the server, through sharp (libvips): the enrolment's pictures
// (obverse, reverse, selfie, liveness frames), a single registration's image, a delegated onboarding's and each
// picture of a bulk import. Spec §5: registration images are jpg or png, 5 kB – 5 MB; the delegated onboarding's
// (and the bulk import's) 6,828 – 6,990,508 bytes. Whatever the way in, the same codes and the same words.
//
// Type: the magic bytes decide, never a header or a file name, and only JPEG and PNG get past them; whatever
// else libvips could read (WebP, GIF, TIFF, AVIF/HEIF, SVG, PDF…) is refused with image_wrong_type before
// sharp sees it, so text formats such as SVG are never rendered. sharp's own reading of the header must then
// name the same format.
//
// Pixel flood: the header is read with sharp's metadata() (no pixel is decoded) and anything over MAX_PIXELS is
// refused; the decoding pipeline itself is opened with limitInputPixels: MAX_PIXELS as well, so a small file
// that declares a huge canvas never gets its canvas allocated. Every pixel is decoded (the sharpness needs the
// whole picture), and what the decoder finds wrong in the data is image_unreadable instead of a half-grey
// picture: for a PNG, libpng's errors (a cut or garbled IDAT, a bad CRC); for a JPEG, libjpeg's warnings too,
// because libjpeg calls garbage in the entropy-coded data a warning ("Corrupt JPEG data: bad Huffman code",
// "premature end of data segment") and paints the rest grey, which failOn: 'error' let through. The one warning
// that loses no pixel, extraneous bytes before a marker (left by some cameras' encoders), is let through: the
// picture is decoded again with failOn: 'error'.
//
// Sharpness: the share of high-frequency energy in the parts of the picture that carry detail. sharp decodes,
// flattens any alpha onto white, turns the image grey and shrinks it to fit SHARPNESS_SIDE (never enlarges);
// then the 4-neighbour Laplacian is taken of it (clipped to ±255, as libvips' 8-bit convolve() gave it before;
// computed here, so that each check runs one libvips pipeline and not three). Over 8×8 tiles of that grey image: a tile takes
// part when its pixels deviate from its mean by an RMS of 4 grey levels or more (its "detail energy"
// Σ(x − mean)²); its Laplacian energy ΣL², less what sensor noise alone would put there, is its
// high-frequency energy. The score is Σ high / Σ detail over the detailed tiles, per mille. A sharp edge
// carries a Laplacian of about its full contrast on the pixels either side of it; an edge blurred over a few
// pixels is a smooth ramp whose second difference is a small fraction of that, below the noise allowance.
// See BLUR_THRESHOLD for the calibration.
import sharp from 'sharp';
import type { ImageRefusalCode } from '../../contract/api/image-refusals';
import { DELEGATED_IMAGE_MAX_BYTES, DELEGATED_IMAGE_MIN_BYTES } from '../../contract/domain/singles';

export const IMAGE_MIN_BYTES = 5 * 1024;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Refuse anything that claims more pixels than this (a small file can declare a huge canvas). */
export const MAX_PIXELS = 40_000_000;
/**
 * Below this score (Laplacian energy above the noise allowance per unit of detail energy, per mille) an image
 * counts as blurred. The scale is not the one of the hand-written DCT measure this replaces (threshold 10 ‰
 * there); 20 ‰ puts the cut at the same blur as before. Calibrated on the drawn scene of make-fixtures.ts
 * (320×240, ±1 grey level of noise) blurred with sharp's Gaussian: σ 1.8 px scores 55 ‰ (DCT measure 13.8),
 * σ 2.0 px 33 ‰ (10.7), σ 2.2 px 7 ‰ (6.2), σ 2.4 px and more 0 ‰ (1.5), so both measures pass σ 2.0 and refuse
 * σ 2.2. Scores of the test fixtures, before → after: tests/fixtures/images document 225 → 2530 ‰, selfie 232
 * → 2559 ‰, the mild blur of the tests (3 box passes of radius 1, σ ≈ 1.4 px) 29.5 → 187 ‰, the blurred
 * document (σ ≈ 6.5 px) 0 → 0 ‰, the noisy blurred one 9.5 → 0 ‰; the Chromium-drawn photos of
 * tests/fixtures/generated (JPEG q90, 1280×960, measured at 1024×768) document 164 → 1484 ‰, selfie 107 →
 * 891 ‰, 12 MP document 106 → 1501 ‰, the document blurred 9 px 0 → 0 ‰.
 */
export const BLUR_THRESHOLD = 20;
/** The sharpness is measured on the image shrunk to fit this many pixels a side (never enlarged). */
export const SHARPNESS_SIDE = 1024;
const TILE = 8;
/** A tile takes part when its detail energy reaches an RMS deviation of 4 grey levels over its 64 pixels. */
const DETAIL_FLOOR = TILE * TILE * 4 * 4;
/**
 * Laplacian energy each tile may hold from sensor noise alone: independent noise of σ grey levels gives the
 * 4-neighbour Laplacian a variance of 20σ²; σ = 2.5 here, so only what exceeds it counts and a noisy blurred
 * photo stays blurred.
 */
const NOISE_HIGH = TILE * TILE * 20 * 2.5 * 2.5;
/** Fewer detailed tiles than this (per mille of all tiles, and at least 8) means a featureless image. */
const MIN_DETAIL_TILES_PER_MILLE = 2;
/**
 * libvips options for untrusted input: the pixel-flood limit, and corrupt or truncated data is an error (for a
 * JPEG, whatever libjpeg warns about; see the top of this file).
 */
const inputOf = (
  format: ImageFormat,
  failOn: 'warning' | 'error' = format === 'jpeg' ? 'warning' : 'error',
) => ({ limitInputPixels: MAX_PIXELS, failOn }) as const;
/** libjpeg's warning for bytes between the data and the next marker: every pixel was decoded. */
const EXTRANEOUS_BYTES = /extraneous bytes before marker/i;

// libvips keeps recent operations and their pixels (up to 50 MB) for reuse. Every upload is a new picture, seen
// once: the cache saves nothing here and only holds memory after each decoding.
sharp.cache(false);

export type ImageFormat = 'jpeg' | 'png';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/** The contract's list: the portal tells each of these apart from a failed upload (machines/image-upload). */
export type { ImageRefusalCode };

/**
 * The byte bounds an image is held to, by the way it came in: 'registration' (the enrolment's pictures and a
 * single registration, 5 kB – 5 MB) or 'delegated' (a delegated onboarding and the bulk import's pictures).
 */
export type ImageBounds = 'registration' | 'delegated';

const BOUNDS: Record<
  ImageBounds,
  { min: number; max: number; tooSmall: ImageRefusalCode; tooLarge: ImageRefusalCode }
> = {
  registration: {
    min: IMAGE_MIN_BYTES,
    max: IMAGE_MAX_BYTES,
    tooSmall: 'image_too_small',
    tooLarge: 'image_too_large',
  },
  delegated: {
    min: DELEGATED_IMAGE_MIN_BYTES,
    max: DELEGATED_IMAGE_MAX_BYTES,
    tooSmall: 'delegated_image_too_small',
    tooLarge: 'delegated_image_too_large',
  },
};

export type ImageRefusal = { ok: false; code: ImageRefusalCode; detail: string };

export interface Sharpness {
  /**
   * Laplacian energy above the noise allowance per unit of detail energy in the detailed tiles, per mille.
   * Null means not computed: the reference checks always compute it, other engines and stored rows may not.
   */
  score: number | null;
  blurred: boolean | null;
  /** 8×8 tiles of the grey, shrunk image that carry detail, and all of its tiles. */
  detailBlocks: number;
  blocks: number;
  note?: string;
}

export type ImageCheck = { ok: true; header: ImageHeader; sharpness: Sharpness } | ImageRefusal;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The type by the first bytes: JPEG FF D8 FF, PNG 89 50 4E 47 0D 0A 1A 0A. */
export function sniffImageType(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return 'png';
  return undefined;
}

/**
 * The header as sharp reads it (no pixel decoded). Throws when sharp cannot read it or finds another format
 * than the magic bytes say.
 */
export async function readImageHeader(bytes: Uint8Array): Promise<ImageHeader> {
  const format = sniffImageType(bytes);
  if (!format) throw new Error('not a JPEG or PNG file');
  // No pixel limit here: metadata() reads the header only, and the caller wants the size to refuse it by.
  const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  if (metadata.format !== format) throw new Error(`read as ${metadata.format}, not ${format}`);
  const { width, height } = metadata;
  if (!width || !height) throw new Error('no size in the header');
  return { format, width, height };
}

/**
 * The checks that need no decoding, in the order every way in applies them: type by the first bytes, then the
 * byte bounds. Undefined when the image passes them.
 */
export function checkBytes(
  bytes: Uint8Array,
  bounds: ImageBounds = 'registration',
): ImageRefusal | undefined {
  if (!sniffImageType(bytes))
    return { ok: false, code: 'image_wrong_type', detail: 'The image must be a JPEG or PNG file.' };
  const { min, max, tooSmall, tooLarge } = BOUNDS[bounds];
  if (bytes.length < min)
    return { ok: false, code: tooSmall, detail: `The image is smaller than ${min} bytes.` };
  if (bytes.length > max)
    return { ok: false, code: tooLarge, detail: `The image is larger than ${max} bytes.` };
  return undefined;
}

/** All checks of an uploaded image: type, byte bounds, header, pixel flood, then decoding and sharpness. */
export async function checkImage(
  bytes: Uint8Array,
  bounds: ImageBounds = 'registration',
): Promise<ImageCheck> {
  const refused = checkBytes(bytes, bounds);
  if (refused) return refused;
  let header: ImageHeader;
  try {
    header = await readImageHeader(bytes);
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
    sharpness = await measureSharpness(bytes);
  } catch (error) {
    if (isPixelLimit(error)) {
      return {
        ok: false,
        code: 'image_too_many_pixels',
        detail: `The image has more than ${MAX_PIXELS} pixels.`,
      };
    }
    return {
      ok: false,
      code: 'image_unreadable',
      detail: `The image data is not readable: ${message(error)}`,
    };
  }
  return { ok: true, header, sharpness };
}

function message(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/** sharp's refusal of an input over limitInputPixels. */
export function isPixelLimit(error: unknown): boolean {
  return error instanceof Error && /exceeds pixel limit/i.test(error.message);
}

/** The grey image the sharpness is measured on: decoded, alpha flattened onto white, shrunk, 8 bits, 1 band. */
async function greyImage(
  bytes: Uint8Array,
  format: ImageFormat,
): Promise<{ grey: Buffer; width: number; height: number }> {
  try {
    return await decodeGrey(bytes, inputOf(format));
  } catch (error) {
    if (format === 'jpeg' && error instanceof Error && EXTRANEOUS_BYTES.test(error.message))
      return decodeGrey(bytes, inputOf(format, 'error'));
    throw error;
  }
}

async function decodeGrey(
  bytes: Uint8Array,
  input: ReturnType<typeof inputOf>,
): Promise<{ grey: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes, input)
    .flatten({ background: '#ffffff' })
    .resize({ width: SHARPNESS_SIDE, height: SHARPNESS_SIDE, fit: 'inside', withoutEnlargement: true })
    .toColourspace('b-w')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`grey image with ${info.channels} channels`);
  return { grey: data, width: info.width, height: info.height };
}

/**
 * The 4-neighbour Laplacian of a grey image, clipped to ±255: the values sharp's 8-bit convolve() gave as two
 * convolutions (the kernel and its negation, each clipped at 0 and 255), so the calibration of BLUR_THRESHOLD
 * holds. Only the inner pixels are computed (the border rows and columns stay 0): the tiles never read the border.
 * In JavaScript rather than two more libvips pipelines per check, whose threads and buffers the process kept.
 */
function laplacian(grey: Uint8Array, width: number, height: number): Int16Array {
  const result = new Int16Array(width * height);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const sum =
        (grey[i - width] ?? 0) +
        (grey[i - 1] ?? 0) +
        (grey[i + 1] ?? 0) +
        (grey[i + width] ?? 0) -
        4 * (grey[i] ?? 0);
      result[i] = sum > 255 ? 255 : sum < -255 ? -255 : sum;
    }
  }
  return result;
}

/** The sharpness of a JPEG or PNG (anything else is refused unread, so SVG and the like are never rendered). */
export async function measureSharpness(bytes: Uint8Array): Promise<Sharpness> {
  const format = sniffImageType(bytes);
  if (!format) throw new Error('not a JPEG or PNG file');
  const { grey, width, height } = await greyImage(bytes, format);
  const lap = laplacian(grey, width, height);
  let blocks = 0;
  let detailBlocks = 0;
  let detail = 0;
  let high = 0;
  // Tiles start one pixel in: the Laplacian of the border rows and columns reads pixels past the edge.
  for (let top = 1; top + TILE < height; top += TILE) {
    for (let left = 1; left + TILE < width; left += TILE) {
      blocks++;
      let sum = 0;
      let squares = 0;
      let energy = 0;
      for (let y = top; y < top + TILE; y++) {
        for (let x = left; x < left + TILE; x++) {
          const i = y * width + x;
          const value = grey[i] ?? 0;
          const l = lap[i] ?? 0;
          sum += value;
          squares += value * value;
          energy += l * l;
        }
      }
      const ac = squares - (sum * sum) / (TILE * TILE);
      if (ac < DETAIL_FLOOR) continue;
      detailBlocks++;
      detail += ac;
      high += Math.max(0, energy - NOISE_HIGH);
    }
  }
  const base = { detailBlocks, blocks };
  const needed = Math.max(8, Math.ceil((blocks * MIN_DETAIL_TILES_PER_MILLE) / 1000));
  if (detailBlocks < needed) return { ...base, score: 0, blurred: true, note: 'no detail in the image' };
  const score = Math.round((high / detail) * 10_000) / 10;
  return { ...base, score, blurred: score < BLUR_THRESHOLD };
}
