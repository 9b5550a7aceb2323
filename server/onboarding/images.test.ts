import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  BLUR_THRESHOLD,
  checkImage,
  IMAGE_MAX_BYTES,
  IMAGE_MIN_BYTES,
  isPixelLimit,
  MAX_PIXELS,
  measureSharpness,
  readImageHeader,
  sniffImageType,
} from './images';
import { corruptScanJpeg, extraneousBytesJpeg, truncated } from './testing/broken-images';
import {
  blur,
  drawScene,
  encodeJpeg,
  encodePng,
  FIXTURES_DIR,
  makeFixtureSet,
  pngChunk,
  pngHeader,
  quantise,
} from './testing/make-fixtures';

// checkImage is asynchronous since the checks go through sharp (libvips runs on the libuv thread pool and has
// no synchronous API): the tests await it where they used to call it directly.
const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES_DIR, name)));
const sharpnessOf = async (bytes: Uint8Array) => {
  const check = await checkImage(bytes);
  if (!check.ok) throw new Error(check.code);
  return check.sharpness;
};

describe('type, bounds and header', () => {
  it('tells JPEG and PNG by their magic bytes only', async () => {
    expect(sniffImageType(fixture('document.jpg'))).toBe('jpeg');
    expect(sniffImageType(fixture('document.png'))).toBe('png');
    expect(sniffImageType(fixture('not-an-image.gif'))).toBeUndefined();
    expect(sniffImageType(new Uint8Array([0xff, 0xd8]))).toBeUndefined();
    expect(await checkImage(fixture('not-an-image.gif'))).toMatchObject({
      ok: false,
      code: 'image_wrong_type',
    });
  });

  it('keeps images between 5 kB and 5 MB (spec §5)', async () => {
    expect(IMAGE_MIN_BYTES).toBe(5120);
    expect(IMAGE_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(await checkImage(fixture('tiny.jpg'))).toMatchObject({ ok: false, code: 'image_too_small' });
    const big = new Uint8Array(IMAGE_MAX_BYTES + 1);
    big.set(fixture('document.png'));
    expect(await checkImage(big)).toMatchObject({ ok: false, code: 'image_too_large' });
  });

  it('reads the pixel size from the header and refuses a pixel flood before decoding', async () => {
    expect(await checkImage(fixture('document.jpg'))).toMatchObject({
      ok: true,
      header: { format: 'jpeg', width: 320, height: 240 },
    });
    expect(await checkImage(fixture('document.png'))).toMatchObject({
      ok: true,
      header: { format: 'png', width: 320, height: 240 },
    });
    expect(MAX_PIXELS).toBe(40_000_000);
    // Refused by the header's size (its detail names the declared width × height), not by a decoding that ran.
    expect(await checkImage(fixture('flood.png'))).toMatchObject({
      ok: false,
      code: 'image_too_many_pixels',
      detail: expect.stringMatching(/^The image is \d+×\d+, more than/),
    });
    expect(await checkImage(fixture('flood.jpg'))).toMatchObject({
      ok: false,
      code: 'image_too_many_pixels',
      detail: expect.stringMatching(/^The image is \d+×\d+, more than/),
    });
  });

  it('answers image_unreadable for a truncated header or corrupt data', async () => {
    const jpeg = fixture('document.jpg');
    const noFrame = new Uint8Array(6000);
    noFrame.set([0xff, 0xd8, 0xff, 0xfe, 0x17, 0x6e]);
    expect(await checkImage(noFrame)).toMatchObject({ ok: false, code: 'image_unreadable' });
    // readJpegHeader went with the hand-written decoder; sharp's header reading is readImageHeader.
    await expect(readImageHeader(jpeg.subarray(0, 30))).rejects.toThrow();
    const png = Buffer.from(fixture('document.png'));
    png.fill(0, 50, 3000);
    expect(await checkImage(new Uint8Array(png))).toMatchObject({ ok: false, code: 'image_unreadable' });
  });
});

describe('through sharp: bombs, other formats, broken data', () => {
  /** A PNG whose header declares width × height over a few bytes of data, padded past the 5 kB minimum. */
  const declaredPng = (width: number, height: number) =>
    new Uint8Array(
      Buffer.concat([
        pngHeader(width, height, 0),
        pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(6000, 0x20)])),
        pngChunk('IDAT', deflateSync(Buffer.alloc(4096))),
        pngChunk('IEND', new Uint8Array(0)),
      ]),
    );

  it('refuses a small PNG that declares a 50,000 × 50,000 canvas without allocating it', async () => {
    const bomb = declaredPng(50_000, 50_000);
    expect(bomb.length).toBeLessThan(7000);
    expect(await checkImage(bomb)).toMatchObject({
      ok: false,
      code: 'image_too_many_pixels',
      detail: 'The image is 50000×50000, more than 40000000 pixels.',
    });
    // The decoding pipeline refuses it on its own too (sharp's limitInputPixels), before any pixel memory.
    const refusal = await measureSharpness(bomb).catch((error: unknown) => error);
    expect(isPixelLimit(refusal)).toBe(true);
  });

  it('refuses just over the limit and reads a real header of that size', async () => {
    expect(await readImageHeader(declaredPng(6400, 6400))).toEqual({
      format: 'png',
      width: 6400,
      height: 6400,
    });
    expect(6400 * 6400).toBeGreaterThan(MAX_PIXELS);
    expect(await checkImage(declaredPng(6400, 6400))).toMatchObject({ code: 'image_too_many_pixels' });
  });

  it('refuses the other formats sharp can read as image_wrong_type, and never renders SVG', async () => {
    const picture = await sharp(fixture('document.png')).resize(640, 480).toBuffer();
    for (const [name, bytes] of [
      ['webp', await sharp(picture).webp({ lossless: true }).toBuffer()],
      ['gif', await sharp(picture).gif().toBuffer()],
      ['tiff', await sharp(picture).tiff().toBuffer()],
      [
        'svg',
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="50000" height="50000"><!--${' '.repeat(6000)}--></svg>`,
        ),
      ],
    ] as const) {
      expect(bytes.length, name).toBeGreaterThan(IMAGE_MIN_BYTES);
      expect(sniffImageType(bytes), name).toBeUndefined();
      expect(await checkImage(new Uint8Array(bytes)), name).toMatchObject({ code: 'image_wrong_type' });
      await expect(measureSharpness(new Uint8Array(bytes)), name).rejects.toThrow(/not a JPEG or PNG/);
    }
  });

  it('answers image_unreadable for a truncated JPEG and a PNG signature in front of something else', async () => {
    const jpeg = fixture('document.jpg');
    expect(await checkImage(jpeg.subarray(0, 20_000))).toMatchObject({ code: 'image_unreadable' });
    const fake = new Uint8Array(6000);
    fake.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    fake.set(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 8);
    expect(await checkImage(fake)).toMatchObject({ code: 'image_unreadable' });
  });

  it("decodes every pixel: garbage in a JPEG's scan data, a JPEG or a PNG cut short are image_unreadable", async () => {
    for (const name of ['document.jpg', 'selfie.jpg', 'selfie.png', 'document.png']) {
      const good = fixture(name);
      const broken: [string, Uint8Array][] = [
        ['cut at 60 %', truncated(good, 0.6)],
        ['cut at 97 %', truncated(good, 0.97)],
      ];
      if (name.endsWith('.jpg')) broken.push(['garbage scan data', corruptScanJpeg(good)]);
      for (const [what, bytes] of broken) {
        // The header is whole: only decoding the pixels finds these broken.
        await expect(readImageHeader(bytes)).resolves.toMatchObject({
          format: name.endsWith('.jpg') ? 'jpeg' : 'png',
        });
        expect(await checkImage(bytes), `${name} ${what}`).toMatchObject({
          ok: false,
          code: 'image_unreadable',
        });
      }
    }
  });

  it('keeps a JPEG whose encoder left a few bytes before its end marker (every pixel is there)', async () => {
    const good = fixture('selfie.jpg');
    const check = await checkImage(extraneousBytesJpeg(good));
    expect(check).toMatchObject({ ok: true, sharpness: { blurred: false } });
  });

  it('judges what the hand-written decoder left out: progressive JPEG, interlaced, 16-bit and palette PNG', async () => {
    const source = fixture('document.png');
    const reference = (await sharpnessOf(source)).score ?? 0;
    for (const [name, bytes] of [
      ['progressive jpeg', await sharp(source).jpeg({ progressive: true, quality: 95 }).toBuffer()],
      ['interlaced png', await sharp(source).png({ progressive: true }).toBuffer()],
      ['16-bit png', await sharp(source).toColourspace('grey16').png().toBuffer()],
      ['palette png', await sharp(source).png({ palette: true, colours: 64 }).toBuffer()],
    ] as const) {
      const s = await sharpnessOf(new Uint8Array(bytes));
      expect(s.blurred, name).toBe(false);
      expect(s.score, name).toBeGreaterThan(reference * 0.8);
    }
  });
});

describe('sharpness', () => {
  it('separates the sharp fixtures from the blurred ones, in JPEG and in PNG', async () => {
    for (const name of ['document.jpg', 'document.png', 'selfie.jpg', 'selfie.png']) {
      const s = await sharpnessOf(fixture(name));
      expect(s.blurred, name).toBe(false);
      expect(s.score, name).toBeGreaterThan(BLUR_THRESHOLD * 5);
    }
    for (const name of ['document-blurred.jpg', 'document-blurred.png']) {
      const s = await sharpnessOf(fixture(name));
      expect(s.blurred, name).toBe(true);
      expect(s.score, name).toBeLessThan(BLUR_THRESHOLD);
    }
  });

  it('gives the same score to the same picture in PNG and in a fine JPEG (one measure for both)', async () => {
    const png = (await sharpnessOf(fixture('document.png'))).score ?? 0;
    const jpeg = (await sharpnessOf(fixture('document.jpg'))).score ?? 0;
    expect(Math.abs(png - jpeg)).toBeLessThan(png * 0.05);
  });

  it('keeps a noisy blurred picture blurred, and a coarsely compressed sharp one sharp', async () => {
    const scene = drawScene(320, 240, 7);
    const noisy = quantise(blur(scene, 6), 3, 8);
    expect((await sharpnessOf(new Uint8Array(await encodePng(320, 240, noisy)))).blurred).toBe(true);
    const coarse = await encodeJpeg(320, 240, quantise(scene, 1, 9), 24);
    expect(coarse.length).toBeGreaterThan(IMAGE_MIN_BYTES);
    expect((await sharpnessOf(new Uint8Array(coarse))).blurred).toBe(false);
    // Mild blur (σ ≈ 1 px) still counts as sharp enough.
    const mild = await encodePng(320, 240, quantise(blur(scene, 1), 1, 10));
    expect((await sharpnessOf(new Uint8Array(mild))).blurred).toBe(false);
  });

  it('reads colour PNGs and counts a featureless image as blurred', async () => {
    const gray = quantise(drawScene(320, 240, 4), 1, 5);
    const rgb = new Uint8Array(gray.length * 3);
    for (let i = 0; i < gray.length; i++) rgb.set([gray[i] ?? 0, gray[i] ?? 0, gray[i] ?? 0], i * 3);
    const png = new Uint8Array(await encodePng(320, 240, rgb, 3));
    // decodePngLuma went with the hand-written decoder: the colour PNG is compared with the grey PNG of the
    // same picture instead (sharp turns it grey before measuring).
    const grey = await sharpnessOf(new Uint8Array(await encodePng(320, 240, gray)));
    const colour = await sharpnessOf(png);
    expect(Math.abs((colour.score ?? 0) - (grey.score ?? 0))).toBeLessThan((grey.score ?? 0) * 0.05);
    expect(colour.blurred).toBe(false);
    // Grey with ±1 noise: no block carries detail.
    const noise = quantise({ width: 640, height: 480, pixels: new Float32Array(640 * 480).fill(128) }, 1, 3);
    const featureless = new Uint8Array(await encodePng(640, 480, noise));
    expect(featureless.length).toBeGreaterThan(IMAGE_MIN_BYTES);
    expect(await sharpnessOf(featureless)).toMatchObject({ blurred: true, note: 'no detail in the image' });
  });

  const chromium = fileURLToPath(new URL('../../tests/fixtures/generated/', import.meta.url));
  // npm test draws these (scripts/make-fixtures.mjs) before the unit tests run.
  it('separates the Chromium-drawn photos of the browser journeys', async () => {
    const read = (name: string) => {
      const path = join(chromium, name);
      if (!existsSync(path)) throw new Error(`${path} is missing: run node scripts/make-fixtures.mjs`);
      return new Uint8Array(readFileSync(path));
    };
    expect((await sharpnessOf(read('document.jpg'))).blurred).toBe(false);
    expect((await sharpnessOf(read('selfie.jpg'))).blurred).toBe(false);
    expect((await sharpnessOf(read('document-blurred.jpg'))).blurred).toBe(true);
  });
});

describe('fixtures', () => {
  it('are what make-fixtures.ts generates (deterministic)', async () => {
    for (const [name, bytes] of Object.entries(await makeFixtureSet())) {
      expect(existsSync(join(FIXTURES_DIR, name)), name).toBe(true);
      expect(Buffer.compare(Buffer.from(fixture(name)), bytes), name).toBe(0);
    }
  });
});
