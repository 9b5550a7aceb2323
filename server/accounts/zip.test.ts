import { describe, expect, it } from 'vitest';
import { unzip, zip } from './zip';

describe('zip (stored entries)', () => {
  const modified = new Date('2026-03-09T10:20:30Z');

  it('writes the local header, the central directory and the end record that unzip tools read', () => {
    const bytes = zip([{ name: 'hello.txt', data: 'hello' }], modified);
    const view = new DataView(bytes.buffer);
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    expect(view.getUint16(8, true)).toBe(0); // stored
    expect(view.getUint32(14, true)).toBe(0x3610a686); // CRC-32 of "hello"
    expect(view.getUint32(18, true)).toBe(5);
    // DOS date and time: 2026-03-09 10:20:30.
    expect(view.getUint16(12, true)).toBe(((2026 - 1980) << 9) | (3 << 5) | 9);
    expect(view.getUint16(10, true)).toBe((10 << 11) | (20 << 5) | 15);
    const end = bytes.length - 22;
    expect(view.getUint32(end, true)).toBe(0x06054b50);
    expect(view.getUint16(end + 10, true)).toBe(1);
    const centralOffset = view.getUint32(end + 16, true);
    expect(centralOffset).toBe(30 + 'hello.txt'.length + 5);
    expect(view.getUint32(centralOffset, true)).toBe(0x02014b50);
    expect(view.getUint32(end + 12, true)).toBe(46 + 'hello.txt'.length);
  });

  it('round-trips text and binary entries, names in UTF-8, in order', () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1, 2, 3]);
    const entries = unzip(
      zip([
        { name: 'user.json', data: '{"first_name":"Íñigo"}\n' },
        { name: 'images/selfie.jpg', data: jpeg },
        { name: 'año.txt', data: '' },
      ]),
    );
    expect([...entries.keys()]).toEqual(['user.json', 'images/selfie.jpg', 'año.txt']);
    expect(new TextDecoder().decode(entries.get('user.json'))).toBe('{"first_name":"Íñigo"}\n');
    expect([...(entries.get('images/selfie.jpg') ?? [])]).toEqual([...jpeg]);
    expect(entries.get('año.txt')?.length).toBe(0);
  });

  it('finds a corrupted entry by its CRC', () => {
    const bytes = zip([{ name: 'a.txt', data: 'abc' }]);
    bytes[30 + 'a.txt'.length] = 'x'.charCodeAt(0);
    expect(() => unzip(bytes)).toThrow(/bad CRC for a.txt/);
  });
});
