// The central directory of a zip (APPNOTE 4.3.12–4.3.16): what each entry should be once read — its name, CRC-32,
// sizes and where its local header starts. Shared by the browser's check of the bulk import's zip (it reads only the
// directory and the first bytes of each picture) and the server's streaming reader (which checks every entry it
// inflated against it). Pure: bytes in, entries out; null for anything that is not a whole, well-formed directory.
// Not fflate's: fflate inflates (bulk-upload.ts streams the entries through its Unzip) but reads a directory only
// inside unzipSync, which needs the whole zip in memory (up to 200 MB in a browser tab), gives no entry's CRC-32 or
// offset, checks no CRC-32 (a flipped byte reads as good data), and reads past a directory cut short as zeros.

export interface ZipEntryInfo {
  name: string;
  /** CRC-32 of the entry once inflated, as the zip declares it. */
  crc32: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header from the start of the zip. */
  offset: number;
  /** 0 stored, 8 deflated. */
  method: number;
}

export interface ZipEnd {
  /** Where the central directory starts, from the start of the zip. */
  directoryOffset: number;
  directorySize: number;
  entries: number;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
/** The end record (22 bytes) and the longest comment after it. */
export const ZIP_END_MAX_BYTES = 22 + 0xffff;

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A 64-bit little-endian number that must fit a JS number (zips here are far below 2^53 bytes). */
function u64(v: DataView, at: number): number {
  return v.getUint32(at, true) + v.getUint32(at + 4, true) * 0x1_0000_0000;
}

/**
 * The end-of-central-directory record found in the last bytes of a zip (`tail`, at least ZIP_END_MAX_BYTES of them
 * when the zip is that long), with zip64's when the record says so; null when there is none.
 */
export function readZipEnd(tail: Uint8Array): ZipEnd | null {
  const v = view(tail);
  for (let at = tail.length - 22; at >= 0 && at >= tail.length - ZIP_END_MAX_BYTES; at--) {
    if (v.getUint32(at, true) !== EOCD) continue;
    // The comment must run exactly to the end: a stray signature inside the data is not the record.
    if (at + 22 + v.getUint16(at + 20, true) !== tail.length) continue;
    let end: ZipEnd = {
      entries: v.getUint16(at + 10, true),
      directorySize: v.getUint32(at + 12, true),
      directoryOffset: v.getUint32(at + 16, true),
    };
    const zip64 =
      end.entries === 0xffff || end.directorySize === 0xffffffff || end.directoryOffset === 0xffffffff;
    if (zip64) {
      const locator = at - 20;
      if (locator < 0 || v.getUint32(locator, true) !== EOCD64_LOCATOR) return null;
      // The zip64 record's offset is from the start of the zip; the tail must hold it (it sits right before).
      const record = locator - 56;
      if (record < 0 || v.getUint32(record, true) !== EOCD64) return null;
      end = {
        entries: u64(v, record + 32),
        directorySize: u64(v, record + 40),
        directoryOffset: u64(v, record + 48),
      };
    }
    return end;
  }
  return null;
}

/** The entries of a central directory (exactly its bytes); null when a record is cut short or malformed. */
export function readCentralDirectory(directory: Uint8Array, expected?: number): ZipEntryInfo[] | null {
  const v = view(directory);
  const decoder = new TextDecoder();
  const entries: ZipEntryInfo[] = [];
  let at = 0;
  while (at < directory.length) {
    if (at + 46 > directory.length || v.getUint32(at, true) !== CENTRAL) return null;
    const method = v.getUint16(at + 10, true);
    const nameLength = v.getUint16(at + 28, true);
    const extraLength = v.getUint16(at + 30, true);
    const commentLength = v.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > directory.length) return null;
    const entry: ZipEntryInfo = {
      name: decoder.decode(directory.subarray(at + 46, at + 46 + nameLength)),
      crc32: v.getUint32(at + 16, true),
      compressedSize: v.getUint32(at + 20, true),
      size: v.getUint32(at + 24, true),
      offset: v.getUint32(at + 42, true),
      method,
    };
    // Zip64: the values that did not fit are in the extra field 0x0001, in this order.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = v.getUint16(extra, true);
      const length = v.getUint16(extra + 2, true);
      if (id === 0x0001) {
        let field = extra + 4;
        const take = () => {
          if (field + 8 > extra + 4 + length) return null;
          const value = u64(v, field);
          field += 8;
          return value;
        };
        if (entry.size === 0xffffffff) entry.size = take() ?? entry.size;
        if (entry.compressedSize === 0xffffffff) entry.compressedSize = take() ?? entry.compressedSize;
        if (entry.offset === 0xffffffff) entry.offset = take() ?? entry.offset;
      }
      extra += 4 + length;
    }
    entries.push(entry);
    at = next;
  }
  if (expected !== undefined && entries.length !== expected) return null;
  return entries;
}

/** A picture's path in a zip as the metadata names it (no leading `./`). */
export const zipPathOf = (name: string) => name.replace(/^\.\//, '');
