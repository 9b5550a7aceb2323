// Theme tokens derived from the tenant's brand colour (spec §9: default #0D55FF). Set through the CSSOM,
// which the Content-Security-Policy allows, unlike inline style elements.
export const DEFAULT_BRAND_COLOUR = '#0D55FF';

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const value = /^#([0-9a-f]{6})$/i.exec(hex)?.[1] ?? DEFAULT_BRAND_COLOUR.slice(1);
  return [0, 2, 4].map((i) => Number.parseInt(value.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

function mix(a: Rgb, b: Rgb, weightOfB: number): Rgb {
  return a.map((c, i) => c + ((b[i] ?? 0) - c) * weightOfB) as Rgb;
}

export function relativeLuminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(parseHex(a)), relativeLuminance(parseHex(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export interface ThemeTokens {
  brand: string;
  brandFg: string;
  brandSoft: string;
  brandStrong: string;
}

/** Text on the brand colour is white or near-black, whichever reads better (WCAG contrast). */
export function themeFromBrandColour(brandColour: string): ThemeTokens {
  const rgb = parseHex(brandColour);
  const brand = toHex(rgb);
  const brandFg = contrastRatio(brand, '#ffffff') >= contrastRatio(brand, '#111827') ? '#ffffff' : '#111827';
  return {
    brand,
    brandFg,
    brandSoft: toHex(mix(rgb, [255, 255, 255], 0.88)),
    brandStrong: toHex(mix(rgb, [0, 0, 0], 0.25)),
  };
}

export function applyTheme(tokens: ThemeTokens, root: HTMLElement = document.documentElement): void {
  root.style.setProperty('--brand', tokens.brand);
  root.style.setProperty('--brand-fg', tokens.brandFg);
  root.style.setProperty('--brand-soft', tokens.brandSoft);
  root.style.setProperty('--brand-strong', tokens.brandStrong);
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', tokens.brand);
}
