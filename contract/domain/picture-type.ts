// What a picture is by its first bytes (spec §5: registration images are jpg or png), not by its name: the server's
// check of every uploaded image and the browser's check of the bulk import's photos before upload.

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** How many first bytes decide. */
export const PICTURE_SIGNATURE_BYTES = PNG_SIGNATURE.length;

/** jpg (FF D8 FF) or png (its 8-byte signature) by the first bytes; null for anything else. */
export function pictureTypeOf(bytes: Uint8Array): 'image/jpeg' | 'image/png' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'image/png';
  return null;
}
