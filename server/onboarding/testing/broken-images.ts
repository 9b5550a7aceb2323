// Broken pictures built from good ones, for the image checks' tests: what a camera, a network or a forger can
// send that has a valid header and broken pixel data.

/** Where a JPEG's entropy-coded data begins: just after its first SOS segment. */
function scanStart(jpeg: Uint8Array): number {
  for (let i = 2; i + 3 < jpeg.length; i++) {
    if (jpeg[i] === 0xff && jpeg[i + 1] === 0xda)
      return i + 2 + (((jpeg[i + 2] ?? 0) << 8) | (jpeg[i + 3] ?? 0));
  }
  throw new Error('no SOS segment');
}

/**
 * The JPEG with its header intact and its entropy-coded data replaced by garbage from `skip` bytes into the scan
 * (the end-of-image marker kept): every header reader accepts it, and only decoding the pixels finds it broken.
 */
export function corruptScanJpeg(jpeg: Uint8Array, skip = 200): Uint8Array {
  const bytes = new Uint8Array(jpeg);
  for (let i = scanStart(jpeg) + skip; i < bytes.length - 2; i++) bytes[i] = (i * 7919) & 0xff;
  return bytes;
}

/** The first `share` of the file, as an upload cut short leaves it. */
export function truncated(bytes: Uint8Array, share: number): Uint8Array {
  return bytes.slice(0, Math.floor(bytes.length * share));
}

/**
 * The JPEG with a few bytes between its data and the end-of-image marker, as some cameras' encoders leave them:
 * libjpeg warns about them, and every pixel is still there.
 */
export function extraneousBytesJpeg(jpeg: Uint8Array): Uint8Array {
  const end = jpeg.length - 2;
  const bytes = new Uint8Array(jpeg.length + 3);
  bytes.set(jpeg.subarray(0, end));
  bytes.set([0, 0, 0], end);
  bytes.set(jpeg.subarray(end), end + 3);
  return bytes;
}
