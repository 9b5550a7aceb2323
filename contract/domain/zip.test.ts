import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { pictureTypeOf } from './picture-type';
import { readCentralDirectory, readZipEnd, zipPathOf } from './zip';

// The central directory the browser and the server check a bulk import's zip against.

const entriesOf = (zip: Uint8Array) => {
  const end = readZipEnd(zip);
  if (!end) return null;
  return readCentralDirectory(
    zip.subarray(end.directoryOffset, end.directoryOffset + end.directorySize),
    end.entries,
  );
};

describe('readZipEnd and readCentralDirectory', () => {
  it('list every entry with its sizes, method and the offset of its local header', () => {
    const zip = zipSync(
      { 'a.jpg': new Uint8Array(5000).fill(1), 'dir/': new Uint8Array(0), './b.png': new Uint8Array(300) },
      { level: 6 },
    );
    const entries = entriesOf(zip);
    expect(entries?.map((e) => [e.name, e.size, e.method])).toEqual([
      ['a.jpg', 5000, 8],
      ['dir/', 0, 8],
      ['./b.png', 300, 8],
    ]);
    const view = new DataView(zip.buffer);
    for (const entry of entries ?? []) {
      expect(view.getUint32(entry.offset, true)).toBe(0x04034b50);
      expect(view.getUint32(entry.offset + 14, true)).toBe(entry.crc32);
    }
    expect(zipPathOf('./b.png')).toBe('b.png');
  });

  it('finds the end record behind a comment, and not a signature lying in the data', () => {
    const zip = zipSync({ 'a.jpg': new Uint8Array([0x50, 0x4b, 0x05, 0x06, 1, 2, 3]) }, { level: 0 });
    const comment = new TextEncoder().encode('photos of March');
    const commented = new Uint8Array(zip.length + comment.length);
    commented.set(zip);
    commented.set(comment, zip.length);
    new DataView(commented.buffer).setUint16(zip.length - 2, comment.length, true);
    expect(entriesOf(commented)?.map((e) => e.name)).toEqual(['a.jpg']);
    // Cut before its end record: the signature inside a.jpg's data does not pass for one.
    expect(readZipEnd(zip.subarray(0, zip.length - 22))).toBeNull();
  });

  it('refuses a directory cut short or holding fewer entries than the end record says', () => {
    const zip = zipSync({ 'a.jpg': new Uint8Array(10), 'b.jpg': new Uint8Array(10) });
    const end = readZipEnd(zip);
    if (!end) throw new Error('no end record');
    const directory = zip.subarray(end.directoryOffset, end.directoryOffset + end.directorySize);
    expect(readCentralDirectory(directory.subarray(0, directory.length - 3))).toBeNull();
    expect(readCentralDirectory(directory, 3)).toBeNull();
    expect(readCentralDirectory(directory, 2)).toHaveLength(2);
  });
});

describe('pictureTypeOf', () => {
  it('knows a JPEG and a PNG by their first bytes, and nothing else', () => {
    expect(pictureTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 0]))).toBe('image/jpeg');
    expect(pictureTypeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(pictureTypeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a]))).toBeNull();
    expect(pictureTypeOf(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(pictureTypeOf(new Uint8Array(0))).toBeNull();
  });
});
