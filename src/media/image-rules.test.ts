import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkUploadBytes, fitWithin, IMAGE_MAX_BYTES, IMAGE_MIN_BYTES, sniffImageType } from './image-rules';

describe('image rules (spec §5)', () => {
  it('knows JPEG and PNG by their first bytes only', () => {
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImageType(new TextEncoder().encode('GIF89a'))).toBeUndefined();
    expect(sniffImageType(new TextEncoder().encode('<svg'))).toBeUndefined();
  });

  it('bounds uploads to 5 kB – 5 MB', () => {
    expect(checkUploadBytes(IMAGE_MIN_BYTES - 1)).toBe('too-small');
    expect(checkUploadBytes(IMAGE_MIN_BYTES)).toBeUndefined();
    expect(checkUploadBytes(IMAGE_MAX_BYTES)).toBeUndefined();
    expect(checkUploadBytes(IMAGE_MAX_BYTES + 1)).toBe('too-large');
  });

  it('fits any size within 1920 px on the long side, keeping the shape', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 20_000 }), (w, h) => {
        const fit = fitWithin(w, h);
        expect(Math.max(fit.width, fit.height)).toBeLessThanOrEqual(1920);
        if (Math.max(w, h) <= 1920) expect(fit).toEqual({ width: w, height: h });
        const scale = Math.min(1, 1920 / Math.max(w, h));
        expect(Math.abs(fit.width - w * scale)).toBeLessThanOrEqual(1);
        expect(Math.abs(fit.height - h * scale)).toBeLessThanOrEqual(1);
      }),
    );
  });
});
