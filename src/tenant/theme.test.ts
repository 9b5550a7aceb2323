import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contrastRatio, themeFromBrandColour } from './theme';

describe('themeFromBrandColour', () => {
  it('keeps the default brand colour and puts white text on it', () => {
    expect(themeFromBrandColour('#0D55FF')).toMatchObject({ brand: '#0d55ff', brandFg: '#ffffff' });
  });

  it('puts dark text on a light brand colour', () => {
    expect(themeFromBrandColour('#FFD400').brandFg).toBe('#111827');
  });

  it('property: text on the brand colour always reaches at least 4.5:1 or the best of the two', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (n) => {
        const hex = `#${n.toString(16).padStart(6, '0')}`;
        const { brand, brandFg } = themeFromBrandColour(hex);
        const other = brandFg === '#ffffff' ? '#111827' : '#ffffff';
        expect(contrastRatio(brand, brandFg)).toBeGreaterThanOrEqual(contrastRatio(brand, other));
      }),
    );
  });
});
