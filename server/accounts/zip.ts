// The zip of the data export ("download my data"), written by fflate: entries stored, not deflated (the images
// inside are already compressed and the JSON is small), names in UTF-8, in the order given.
import { crc32 } from 'node:zlib';
import { unzipSync, type Zippable, zipSync } from 'fflate';
import { readCentralDirectory, readZipEnd, ZIP_END_MAX_BYTES } from '../../contract/domain/zip';

export interface ZipEntry {
  /** A relative path with forward slashes (`images/selfie.jpg`). */
  name: string;
  data: Uint8Array | string;
}

/**
 * fflate writes the local time of `mtime` into the entry's DOS date and time; the export says UTC, so it gets a
 * local date whose fields are the UTC ones. DOS dates start in 1980.
 */
function dosFieldsAsUtc(date: Date): Date {
  return new Date(
    Math.max(date.getUTCFullYear(), 1980),
    date.getUTCMonth(),
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  );
}

/** One zip file holding the entries, in order. Names must differ (a zip of two same names reads as either). */
export function zip(entries: readonly ZipEntry[], modified = new Date()): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const mtime = dosFieldsAsUtc(modified);
  // fflate keeps the order of the object's keys; a name that is an array index ("0") would go first, and no
  // export's name is one.
  const files: Zippable = {};
  for (const entry of entries) {
    if (Object.hasOwn(files, entry.name)) throw new Error(`two zip entries named ${entry.name}`);
    const data = typeof entry.data === 'string' ? encoder.encode(entry.data) : entry.data;
    files[entry.name] = [data, { level: 0, mtime }];
  }
  return zipSync(files) as Uint8Array<ArrayBuffer>;
}

/**
 * The entries of a zip, in the order of its central directory, each checked against the CRC-32 the directory
 * declares (fflate does not check it): for tests and for checking an export.
 */
export function unzip(bytes: Uint8Array): Map<string, Uint8Array> {
  const end = readZipEnd(bytes.subarray(Math.max(0, bytes.length - ZIP_END_MAX_BYTES)));
  const directory =
    end &&
    readCentralDirectory(
      bytes.subarray(end.directoryOffset, end.directoryOffset + end.directorySize),
      end.entries,
    );
  if (!directory) throw new Error('not a zip');
  const files = unzipSync(bytes);
  const entries = new Map<string, Uint8Array>();
  for (const { name, crc32: declared } of directory) {
    const data = files[name] ?? new Uint8Array(0);
    if (crc32(data) !== declared) throw new Error(`bad CRC for ${name}`);
    entries.set(name, data);
  }
  return entries;
}
