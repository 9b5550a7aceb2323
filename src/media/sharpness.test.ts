import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { laplacianVariance, luminance } from './sharpness';

function image(width: number, height: number, pixel: (x: number, y: number) => number) {
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = pixel(x, y);
      rgba.set([v, v, v, 255], (y * width + x) * 4);
    }
  return luminance(rgba, width, height);
}

describe('laplacianVariance', () => {
  it('is zero for a flat image', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), (v) => {
        expect(
          laplacianVariance(
            image(16, 16, () => v),
            16,
            16,
          ),
        ).toBeCloseTo(0);
      }),
    );
  });

  it('ranks hard edges above the same edges blurred', () => {
    const sharp = image(64, 64, (x) => (Math.floor(x / 4) % 2 ? 255 : 0));
    const soft = image(64, 64, (x) => 127 + 127 * Math.sin((x / 8) * Math.PI));
    expect(laplacianVariance(sharp, 64, 64)).toBeGreaterThan(100 * laplacianVariance(soft, 64, 64));
  });
});
