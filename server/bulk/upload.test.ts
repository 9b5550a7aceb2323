import { randomBytes } from 'node:crypto';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BULK_LIMITS, type BulkLimits, readBulkUpload } from './upload';

// The streamed reading of a bulk import's upload: limits while reading, zip bombs, headers that lie.

function request(parts: { metadata?: string; media?: Uint8Array }): Request {
  const body = new FormData();
  if (parts.metadata !== undefined) body.append('metadata', new Blob([parts.metadata]), 'people.csv');
  if (parts.media) body.append('media', new Blob([parts.media as Uint8Array<ArrayBuffer>]), 'photos.zip');
  return new Request('http://localhost/api/public/singles/bulk', { method: 'POST', body });
}

const limits = (overrides: Partial<BulkLimits>): BulkLimits => ({ ...BULK_LIMITS, ...overrides });

/** A multipart body as a client may really send it: here cut short, without its closing boundary. */
function rawRequest(body: string): Request {
  return new Request('http://localhost/api/public/singles/bulk', {
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
    body,
  });
}

describe('readBulkUpload', () => {
  it('answers 400 to a body cut short inside any part, and the process goes on', async () => {
    for (const [field, filename] of [
      ['metadata', 'p.csv'],
      ['media', 'photos.zip'],
      ['other', 'x.bin'],
    ]) {
      const cut = `--XYZ\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n\r\nemail`;
      await expect(readBulkUpload(rawRequest(cut)), field).rejects.toMatchObject({
        problem: { status: 400, code: 'bad_request' },
      });
    }
    // A part whose headers never end.
    await expect(
      readBulkUpload(rawRequest('--XYZ\r\nContent-Disposition: form-data; name="metadata"')),
    ).rejects.toMatchObject({ problem: { status: 400 } });
  });

  it('reads the metadata and every picture of the zip', async () => {
    const upload = await readBulkUpload(
      request({
        metadata: 'email\n',
        media: zipSync({ 'a.jpg': new Uint8Array(10), 'dir/': new Uint8Array(0) }),
      }),
    );
    expect(upload.metadata).toEqual({ name: 'people.csv', text: 'email\n' });
    expect(upload.corrupt).toBe(false);
    expect([...upload.pictures.keys()]).toEqual(['a.jpg']);
  });

  it('stops inflating a zip bomb at the picture limit and keeps reading the other entries', async () => {
    // 50 MB of zeros deflate to about 50 KB.
    const media = zipSync({ 'bomb.jpg': new Uint8Array(50_000_000), 'ok.jpg': new Uint8Array(1000).fill(1) });
    const upload = await readBulkUpload(request({ metadata: '', media }));
    expect(upload.oversized.get('bomb.jpg')).toBe(50_000_000);
    expect(upload.pictures.get('ok.jpg')?.length).toBe(1000);
    expect(upload.pictures.has('bomb.jpg')).toBe(false);
  });

  it('stops at the limit when a header declares a small size and the data inflates to more', async () => {
    const media = zipSync({ 'liar.jpg': new Uint8Array(3_000_000).fill(1), 'ok.jpg': new Uint8Array(10) });
    // The local header's uncompressed size (offset 22) says 10 bytes.
    new DataView(media.buffer).setUint32(22, 10, true);
    const upload = await readBulkUpload(request({ metadata: '', media }), limits({ imageBytes: 1_000_000 }));
    const read = upload.oversized.get('liar.jpg') ?? 0;
    expect(read).toBeGreaterThan(1_000_000);
    expect(read).toBeLessThan(3_000_000);
    expect(upload.pictures.has('ok.jpg')).toBe(true);
  });

  it('refuses pictures that add up to more than the inflated limit (413 media_too_large)', async () => {
    const media = zipSync({ 'a.jpg': new Uint8Array(600_000), 'b.jpg': new Uint8Array(600_000) });
    await expect(
      readBulkUpload(request({ metadata: '', media }), limits({ inflatedBytes: 1_000_000 })),
    ).rejects.toMatchObject({ problem: { status: 413, code: 'media_too_large' } });
  });

  it('refuses a body, a metadata file or a zip beyond their limits while reading', async () => {
    const media = zipSync({ 'a.jpg': new Uint8Array(randomBytes(200_000)) });
    await expect(
      readBulkUpload(request({ metadata: '', media }), limits({ uploadBytes: 100_000 })),
    ).rejects.toMatchObject({ problem: { status: 413, code: 'payload_too_large' } });
    await expect(
      readBulkUpload(request({ metadata: 'x'.repeat(2000) }), limits({ metadataBytes: 1000 })),
    ).rejects.toMatchObject({ problem: { status: 413, code: 'metadata_too_large' } });
    const many = zipSync(
      Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`${i}.jpg`, new Uint8Array(1)])),
    );
    await expect(
      readBulkUpload(request({ metadata: '', media: many }), limits({ entries: 4 })),
    ).rejects.toMatchObject({ problem: { status: 422, code: 'too_many_elements' } });
  });

  it('calls a zip cut short, one without its central directory, or not a zip, corrupt', async () => {
    const noise = new Uint8Array(randomBytes(50_000));
    const good = zipSync({ 'a.jpg': noise, 'b.jpg': noise });
    expect((await readBulkUpload(request({ media: good.subarray(0, 60_000) }))).corrupt).toBe(true);
    // Every entry whole, the directory and end record gone.
    const directory = new DataView(good.buffer).getUint32(good.length - 22 + 16, true);
    expect((await readBulkUpload(request({ media: good.subarray(0, directory) }))).corrupt).toBe(true);
    expect((await readBulkUpload(request({ media: new Uint8Array(3000).fill(9) }))).corrupt).toBe(true);
  });
});

describe('readBulkUpload checks every entry against the central directory', () => {
  const pictures = () => ({
    'a.jpg': new Uint8Array(randomBytes(20_000)),
    'b.jpg': new Uint8Array(randomBytes(20_000)),
    'c.jpg': new Uint8Array(randomBytes(20_000)),
  });
  /** Offset of an entry's data in a zip: its local header, name and extra field before it. */
  const dataOffset = (media: Uint8Array, name: string) => {
    const v = new DataView(media.buffer, media.byteOffset, media.byteLength);
    const decoder = new TextDecoder();
    for (let at = 0; at + 30 < media.length; ) {
      const nameLength = v.getUint16(at + 26, true);
      const start = at + 30 + nameLength + v.getUint16(at + 28, true);
      if (decoder.decode(media.subarray(at + 30, at + 30 + nameLength)) === name) return start;
      at = start + v.getUint32(at + 18, true);
    }
    throw new Error(`no ${name}`);
  };

  it('reads a whole zip with every entry good, stored or deflated', async () => {
    for (const level of [0, 6] as const) {
      const files = pictures();
      const upload = await readBulkUpload(request({ metadata: '', media: zipSync(files, { level }) }));
      expect(upload.corrupt).toBe(false);
      expect(upload.damaged.size).toBe(0);
      expect(Buffer.from(upload.pictures.get('b.jpg') ?? []).equals(Buffer.from(files['b.jpg']))).toBe(true);
    }
  });

  it('reports a stored entry with one flipped byte as damaged (its CRC-32) and keeps the others', async () => {
    const media = zipSync(pictures(), { level: 0 });
    const at = dataOffset(media, 'b.jpg') + 1234;
    media[at] = (media[at] as number) ^ 0x01;
    const upload = await readBulkUpload(request({ metadata: '', media }));
    expect(upload.corrupt).toBe(false);
    expect([...upload.damaged.keys()]).toEqual(['b.jpg']);
    expect(upload.damaged.get('b.jpg')).toBe(20_000);
    expect([...upload.pictures.keys()].sort()).toEqual(['a.jpg', 'c.jpg']);
  });

  it('reports a deflated entry with one flipped byte as damaged, whether it inflates wrong or not at all', async () => {
    for (const offset of [10, 500, 5000]) {
      const media = zipSync(pictures(), { level: 6 });
      const at = dataOffset(media, 'a.jpg') + offset;
      media[at] = (media[at] as number) ^ 0x40;
      const upload = await readBulkUpload(request({ metadata: '', media }));
      expect(upload.corrupt).toBe(false);
      expect([...upload.damaged.keys()]).toEqual(['a.jpg']);
      expect([...upload.pictures.keys()].sort()).toEqual(['b.jpg', 'c.jpg']);
    }
  });

  it('reports an entry the directory lists but whose local header is broken, and reads the ones after it', async () => {
    const media = zipSync(pictures(), { level: 0 });
    const at = dataOffset(media, 'b.jpg') - 30 - 'b.jpg'.length;
    media[at] = 0;
    const upload = await readBulkUpload(request({ metadata: '', media }));
    expect(upload.corrupt).toBe(false);
    expect([...upload.damaged.keys()]).toEqual(['b.jpg']);
    expect([...upload.pictures.keys()].sort()).toEqual(['a.jpg', 'c.jpg']);
  });

  it('reports an entry whose size or CRC-32 in the directory differs from what it holds', async () => {
    const media = zipSync(pictures(), { level: 0 });
    const v = new DataView(media.buffer);
    const end = media.length - 22;
    let central = v.getUint32(end + 16, true);
    // The directory's CRC-32 of a.jpg, then the uncompressed size of c.jpg.
    v.setUint32(central + 16, v.getUint32(central + 16, true) ^ 1, true);
    for (let i = 0; i < 2; i++)
      central += 46 + v.getUint16(central + 28, true) + v.getUint16(central + 30, true);
    v.setUint32(central + 24, 19_999, true);
    const upload = await readBulkUpload(request({ metadata: '', media }));
    expect(upload.corrupt).toBe(false);
    expect([...upload.damaged.keys()].sort()).toEqual(['a.jpg', 'c.jpg']);
    expect([...upload.pictures.keys()]).toEqual(['b.jpg']);
  });

  it('refuses a body that is not multipart', async () => {
    const req = new Request('http://localhost/x', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    await expect(readBulkUpload(req)).rejects.toMatchObject({
      problem: { status: 400, code: 'bad_request' },
    });
  });
});
