// Image rules of spec §5: registration images are jpg or png, from 5 kB to 5 MB. Photos are prepared to at
// most 1920 px on the long side and re-encoded as JPEG so they land inside those bounds.
export const IMAGE_MIN_BYTES = 5 * 1024;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_LONG_SIDE = 1920;
/** Refuse to decode anything larger: a small file can claim a huge canvas (pixel flood). */
export const MAX_SOURCE_PIXELS = 50_000_000;

export type ImageKind = 'jpeg' | 'png';
export type ImageProblem = 'wrong-type' | 'too-small' | 'too-large' | 'unreadable';

/** The image type by its first bytes, whatever the file name or declared type say. */
export function sniffImageType(head: Uint8Array): ImageKind | undefined {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.every((byte, i) => head[i] === byte)) return 'png';
  return undefined;
}

/** Whether a file may be sent as it is (spec §5 bounds); the preparation step makes photos fit. */
export function checkUploadBytes(size: number): ImageProblem | undefined {
  if (size < IMAGE_MIN_BYTES) return 'too-small';
  if (size > IMAGE_MAX_BYTES) return 'too-large';
  return undefined;
}

/** Target size keeping the aspect ratio with the long side at most `max`. */
export function fitWithin(
  width: number,
  height: number,
  max = MAX_LONG_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
