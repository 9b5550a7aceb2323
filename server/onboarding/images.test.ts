import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BLUR_THRESHOLD,
  checkImage,
  decodePngLuma,
  IMAGE_MAX_BYTES,
  IMAGE_MIN_BYTES,
  MAX_PIXELS,
  readJpegHeader,
  sniffImageType,
} from './images';
import {
  blur,
  drawScene,
  encodeJpeg,
  encodePng,
  FIXTURES_DIR,
  makeFixtureSet,
  quantise,
} from './testing/make-fixtures';

const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES_DIR, name)));
const sharpnessOf = (bytes: Uint8Array) => {
  const check = checkImage(bytes);
  if (!check.ok) throw new Error(check.code);
  return check.sharpness;
};

describe('type, bounds and header', () => {
  it('tells JPEG and PNG by their magic bytes only', () => {
    expect(sniffImageType(fixture('document.jpg'))).toBe('jpeg');
    expect(sniffImageType(fixture('document.png'))).toBe('png');
    expect(sniffImageType(fixture('not-an-image.gif'))).toBeUndefined();
    expect(sniffImageType(new Uint8Array([0xff, 0xd8]))).toBeUndefined();
    expect(checkImage(fixture('not-an-image.gif'))).toMatchObject({ ok: false, code: 'image_wrong_type' });
  });

  it('keeps images between 5 kB and 5 MB (spec §5)', () => {
    expect(IMAGE_MIN_BYTES).toBe(5120);
    expect(IMAGE_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(checkImage(fixture('tiny.jpg'))).toMatchObject({ ok: false, code: 'image_too_small' });
    const big = new Uint8Array(IMAGE_MAX_BYTES + 1);
    big.set(fixture('document.png'));
    expect(checkImage(big)).toMatchObject({ ok: false, code: 'image_too_large' });
  });

  it('reads the pixel size from the header and refuses a pixel flood before decoding', () => {
    expect(checkImage(fixture('document.jpg'))).toMatchObject({
      ok: true,
      header: { format: 'jpeg', width: 320, height: 240 },
    });
    expect(checkImage(fixture('document.png'))).toMatchObject({
      ok: true,
      header: { format: 'png', width: 320, height: 240 },
    });
    expect(MAX_PIXELS).toBe(40_000_000);
    const started = performance.now();
    expect(checkImage(fixture('flood.png'))).toMatchObject({ ok: false, code: 'image_too_many_pixels' });
    expect(checkImage(fixture('flood.jpg'))).toMatchObject({ ok: false, code: 'image_too_many_pixels' });
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('answers image_unreadable for a truncated header or corrupt data', () => {
    const jpeg = fixture('document.jpg');
    const noFrame = new Uint8Array(6000);
    noFrame.set([0xff, 0xd8, 0xff, 0xfe, 0x17, 0x6e]);
    expect(checkImage(noFrame)).toMatchObject({ ok: false, code: 'image_unreadable' });
    expect(() => readJpegHeader(jpeg.subarray(0, 30))).toThrow();
    const png = Buffer.from(fixture('document.png'));
    png.fill(0, 50, 3000);
    expect(checkImage(new Uint8Array(png))).toMatchObject({ ok: false, code: 'image_unreadable' });
  });
});

describe('sharpness', () => {
  it('separates the sharp fixtures from the blurred ones, in JPEG and in PNG', () => {
    for (const name of ['document.jpg', 'document.png', 'selfie.jpg', 'selfie.png']) {
      const s = sharpnessOf(fixture(name));
      expect(s.blurred, name).toBe(false);
      expect(s.score, name).toBeGreaterThan(BLUR_THRESHOLD * 5);
    }
    for (const name of ['document-blurred.jpg', 'document-blurred.png']) {
      const s = sharpnessOf(fixture(name));
      expect(s.blurred, name).toBe(true);
      expect(s.score, name).toBeLessThan(BLUR_THRESHOLD);
    }
  });

  it('gives the same score to the same picture in PNG and in a fine JPEG (one measure for both)', () => {
    const png = sharpnessOf(fixture('document.png')).score ?? 0;
    const jpeg = sharpnessOf(fixture('document.jpg')).score ?? 0;
    expect(Math.abs(png - jpeg)).toBeLessThan(png * 0.05);
  });

  it('keeps a noisy blurred picture blurred, and a coarsely compressed sharp one sharp', () => {
    const scene = drawScene(320, 240, 7);
    const noisy = quantise(blur(scene, 6), 3, 8);
    expect(sharpnessOf(new Uint8Array(encodePng(320, 240, noisy))).blurred).toBe(true);
    const coarse = encodeJpeg(320, 240, quantise(scene, 1, 9), 24);
    expect(coarse.length).toBeGreaterThan(IMAGE_MIN_BYTES);
    expect(sharpnessOf(new Uint8Array(coarse)).blurred).toBe(false);
    // Mild blur (σ ≈ 1 px) still counts as sharp enough.
    const mild = encodePng(320, 240, quantise(blur(scene, 1), 1, 10));
    expect(sharpnessOf(new Uint8Array(mild)).blurred).toBe(false);
  });

  it('reads colour PNGs and counts a featureless image as blurred', () => {
    const gray = quantise(drawScene(320, 240, 4), 1, 5);
    const rgb = new Uint8Array(gray.length * 3);
    for (let i = 0; i < gray.length; i++) rgb.set([gray[i] ?? 0, gray[i] ?? 0, gray[i] ?? 0], i * 3);
    const png = new Uint8Array(encodePng(320, 240, rgb, 3));
    const decoded = decodePngLuma(png);
    expect(decoded.luma[0]).toBeCloseTo(gray[0] ?? 0, 3);
    expect(sharpnessOf(png).blurred).toBe(false);
    // Grey with ±1 noise: no block carries detail.
    const noise = quantise({ width: 640, height: 480, pixels: new Float32Array(640 * 480).fill(128) }, 1, 3);
    const featureless = new Uint8Array(encodePng(640, 480, noise));
    expect(featureless.length).toBeGreaterThan(IMAGE_MIN_BYTES);
    expect(sharpnessOf(featureless)).toMatchObject({ blurred: true, note: 'no detail in the image' });
  });

  const chromium = fileURLToPath(new URL('../../tests/fixtures/generated/', import.meta.url));
  // npm test draws these (scripts/make-fixtures.mjs) before the unit tests run.
  it('separates the Chromium-drawn photos of the browser journeys', () => {
    const read = (name: string) => {
      const path = join(chromium, name);
      if (!existsSync(path)) throw new Error(`${path} is missing: run node scripts/make-fixtures.mjs`);
      return new Uint8Array(readFileSync(path));
    };
    expect(sharpnessOf(read('document.jpg')).blurred).toBe(false);
    expect(sharpnessOf(read('selfie.jpg')).blurred).toBe(false);
    expect(sharpnessOf(read('document-blurred.jpg')).blurred).toBe(true);
  });
});

describe('fixtures', () => {
  it('are what make-fixtures.ts generates (deterministic)', () => {
    for (const [name, bytes] of Object.entries(makeFixtureSet())) {
      expect(existsSync(join(FIXTURES_DIR, name)), name).toBe(true);
      expect(Buffer.compare(Buffer.from(fixture(name)), bytes), name).toBe(0);
    }
  });
});
