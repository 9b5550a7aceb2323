// Reads the bulk import's multipart upload as it streams in (routes.ts): the `metadata` file into text and the
// `media` zip through fflate's streaming reader, entry by entry, with every limit enforced while reading: the whole
// body (BULK_MAX_UPLOAD_BYTES), the metadata (BULK_MAX_METADATA_BYTES), the number of entries, each picture's bytes
// once inflated — by the size its header declares and by what it really inflates to, so a zip bomb is cut off after
// at most one small slice past the limit — and all pictures together (BULK_MAX_INFLATED_BYTES). Every entry read
// is then checked against the zip's central directory (kept from the last bytes of the stream): its CRC-32 and its
// size once inflated. An entry that fails (a flipped byte, bad compressed data, missing from the directory) is
// `damaged`: the rows naming it are refused one by one, the others go on.
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import busboy from 'busboy';
import { Inflate, Unzip, type UnzipFile } from 'fflate';
import {
  BULK_IMAGE_MAX_BYTES,
  BULK_MAX_INFLATED_BYTES,
  BULK_MAX_METADATA_BYTES,
  BULK_MAX_UPLOAD_BYTES,
  BULK_MAX_ZIP_ENTRIES,
} from '../../contract/domain/bulk';
import { readCentralDirectory, readZipEnd, ZIP_END_MAX_BYTES, zipPathOf } from '../../contract/domain/zip';
import { HttpProblem } from '../http/problem';

export interface BulkUpload {
  metadata: { name: string; text: string } | null;
  /** The zip was sent. */
  media: boolean;
  /** Not a zip, or a damaged one as a whole (no readable central directory, an entry cut short). */
  corrupt: boolean;
  /** The pictures by their path in the zip, each one checked against the directory's CRC-32 and size. */
  pictures: Map<string, Buffer>;
  /** Entries that cannot be trusted, with their size as declared: CRC-32 or size unlike the directory's, compressed
   * data that does not inflate, or an entry the directory lists that could not be read. */
  damaged: Map<string, number>;
  /** Entries larger than BULK_IMAGE_MAX_BYTES (declared or inflated): their size as far as it was read. */
  oversized: Map<string, number>;
}

export interface BulkLimits {
  uploadBytes: number;
  /** The central directory (46 bytes and the name of each entry, BULK_MAX_ZIP_ENTRIES of them): kept in memory. */
  directoryBytes: number;
  metadataBytes: number;
  imageBytes: number;
  inflatedBytes: number;
  entries: number;
}

export const BULK_LIMITS: BulkLimits = {
  uploadBytes: BULK_MAX_UPLOAD_BYTES,
  directoryBytes: 2 * 1024 * 1024,
  metadataBytes: BULK_MAX_METADATA_BYTES,
  imageBytes: BULK_IMAGE_MAX_BYTES,
  inflatedBytes: BULK_MAX_INFLATED_BYTES,
  entries: BULK_MAX_ZIP_ENTRIES,
};

/** Compressed data is inflated this much at a time, so that one push cannot expand past a limit by much. */
const SLICE = 1024;

class TooLarge extends Error {
  constructor(readonly inflated: number) {
    super('image_too_large');
  }
}

/** fflate decoders (deflate, stored) that stop inflating, and say so, once an entry passes `max` bytes. */
function limitedDecoders(max: number) {
  type OnData = (err: Error | null, data: Uint8Array, final: boolean) => void;
  abstract class Limited {
    ondata: OnData = () => {};
    protected dead = false;
    protected total = 0;
    protected emit(data: Uint8Array, final: boolean) {
      if (this.dead) return;
      this.total += data.length;
      if (this.total > max) {
        this.dead = true;
        this.ondata(new TooLarge(this.total), new Uint8Array(0), true);
        return;
      }
      this.ondata(null, data, final);
    }
    abstract push(data: Uint8Array, final: boolean): void;
  }
  class LimitedInflate extends Limited {
    static compression = 8;
    private readonly inflate = new Inflate((data, final) => this.emit(data, final));
    push(data: Uint8Array, final: boolean) {
      for (let i = 0; i < data.length && !this.dead; i += SLICE) {
        const last = i + SLICE >= data.length;
        try {
          this.inflate.push(data.subarray(i, i + SLICE), final && last);
        } catch (error) {
          this.dead = true;
          this.ondata(error as Error, new Uint8Array(0), true);
        }
      }
      if (data.length === 0 && !this.dead) {
        try {
          this.inflate.push(data, final);
        } catch (error) {
          this.dead = true;
          this.ondata(error as Error, new Uint8Array(0), true);
        }
      }
    }
  }
  class LimitedStored extends Limited {
    static compression = 0;
    push(data: Uint8Array, final: boolean) {
      this.emit(data, final);
    }
  }
  return [LimitedInflate, LimitedStored];
}

const problem = (status: number, detail: string, code: string) => new HttpProblem(status, detail, code);

/** One upload being read: what it holds so far, the first limit it broke, and the zip's entries under way. */
class UploadReading {
  readonly upload: BulkUpload = {
    metadata: null,
    media: false,
    corrupt: false,
    pictures: new Map(),
    damaged: new Map(),
    oversized: new Map(),
  };
  failure: HttpProblem | null = null;
  private inflatedTotal = 0;
  private entries = 0;
  private readonly pending = new Set<string>();
  /** CRC-32 of what each entry inflated to, computed as it streams. */
  private readonly crcs = new Map<string, number>();
  /** The last bytes of the zip (its central directory and end record), and how many bytes it had in all. */
  private readonly tail: RollingTail;

  constructor(private readonly limits: BulkLimits) {
    this.tail = new RollingTail(limits.directoryBytes + ZIP_END_MAX_BYTES);
  }

  fail(p: HttpProblem) {
    this.failure ??= p;
  }

  /** The `metadata` part, kept as text unless it passes its limit. */
  readMetadata(stream: Readable, filename: string | undefined) {
    const { limits, upload } = this;
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.metadataBytes) {
        this.fail(
          problem(413, `The metadata is larger than ${limits.metadataBytes} bytes.`, 'metadata_too_large'),
        );
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      if (size <= limits.metadataBytes)
        upload.metadata = { name: filename ?? '', text: Buffer.concat(chunks).toString('utf8') };
    });
  }

  /** The `media` part, through fflate's streaming reader; at its end, every entry against the central directory. */
  readMedia(stream: Readable) {
    const { upload } = this;
    upload.media = true;
    const unzip = new Unzip((file) => this.onEntry(file));
    for (const decoder of limitedDecoders(this.limits.imageBytes)) unzip.register(decoder as never);
    let seen = false;
    stream.on('data', (chunk: Buffer) => {
      if (upload.corrupt || this.failure) return;
      seen = true;
      this.tail.push(chunk);
      try {
        unzip.push(chunk, false);
      } catch {
        upload.corrupt = true;
      }
    });
    stream.on('end', () => {
      if (upload.corrupt || this.failure) return;
      try {
        if (seen) unzip.push(new Uint8Array(0), true);
      } catch {
        upload.corrupt = true;
      }
      // Nothing read, or an entry cut short: not a (whole) zip.
      if (!seen || this.entries === 0 || this.pending.size > 0) upload.corrupt = true;
      else checkAgainstDirectory(upload, this.crcs, this.tail);
    });
  }

  private onEntry(file: UnzipFile) {
    const { limits, upload, pending } = this;
    this.entries += 1;
    if (this.entries > limits.entries) {
      this.fail(problem(422, `The zip holds more than ${limits.entries} entries.`, 'too_many_elements'));
      return;
    }
    const name = zipPathOf(file.name);
    const directory = name.endsWith('/');
    const chunks: Uint8Array[] = [];
    let size = 0;
    let crc = 0;
    pending.add(name);
    /** An entry given up on: oversized or damaged, its bytes so far dropped. */
    const drop = (into: Map<string, number>, reported: number) => {
      into.set(name, reported);
      chunks.length = 0;
      this.inflatedTotal -= size;
      pending.delete(name);
    };
    file.ondata = (error, data, final) => {
      if (error) {
        // Bad compressed data: this entry only; the directory still tells where the next one starts.
        if (error instanceof TooLarge) drop(upload.oversized, error.inflated);
        else drop(upload.damaged, file.originalSize ?? size);
        return;
      }
      if (!directory && data.length > 0) {
        size += data.length;
        this.inflatedTotal += data.length;
        if (this.inflatedTotal > limits.inflatedBytes) {
          this.fail(
            problem(
              413,
              `The pictures add up to more than ${limits.inflatedBytes} bytes.`,
              'media_too_large',
            ),
          );
          return;
        }
        chunks.push(data);
        crc = crc32(data, crc);
      }
      if (final) {
        pending.delete(name);
        if (!directory) {
          upload.pictures.set(name, Buffer.concat(chunks));
          this.crcs.set(name, crc);
        }
      }
    };
    // A header that declares too much is not inflated at all.
    if (!directory && (file.originalSize ?? 0) > limits.imageBytes) {
      upload.oversized.set(name, file.originalSize ?? 0);
      pending.delete(name);
      file.ondata = () => {};
    }
    file.start();
  }
}

/** Feeds the request's body to busboy, counting it against the upload's limit; stops at the first failure. */
async function pump(request: Request, bb: busboy.Busboy, reading: UploadReading, limit: number) {
  const reader = (request.body as ReadableStream<Uint8Array>).getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit)
      reading.fail(problem(413, `The upload is larger than ${limit} bytes.`, 'payload_too_large'));
    if (reading.failure) {
      await reader.cancel();
      throw reading.failure;
    }
    if (!bb.write(value)) await new Promise((r) => bb.once('drain', r));
  }
  bb.end();
}

/**
 * The upload of a bulk import, read as it streams. Throws 413 payload_too_large / metadata_too_large /
 * media_too_large, 422 too_many_elements (entries), 400 bad_request (not multipart).
 */
export async function readBulkUpload(
  request: Request,
  limits: BulkLimits = BULK_LIMITS,
): Promise<BulkUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType) || !request.body)
    throw problem(400, 'Send the metadata and the zip as multipart/form-data.', 'bad_request');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limits.uploadBytes)
    throw problem(413, `The upload is larger than ${limits.uploadBytes} bytes.`, 'payload_too_large');

  const reading = new UploadReading(limits);
  const invalid = () => problem(400, 'The multipart body is not valid.', 'bad_request');
  await new Promise<void>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 2, fields: 8, parts: 10, fileSize: limits.uploadBytes },
      });
    } catch {
      reject(invalid());
      return;
    }
    bb.on('file', (field, stream, info) => {
      // Busboy also emits a body cut short (no closing boundary, a client that drops) on the part's own stream:
      // an 'error' nobody listens to would end the process.
      stream.on('error', () => reject(invalid()));
      if (field === 'metadata') reading.readMetadata(stream, info.filename);
      else if (field === 'media') reading.readMedia(stream);
      else stream.resume();
    });
    bb.on('error', () => reject(invalid()));
    bb.on('close', () => resolve());
    pump(request, bb, reading, limits.uploadBytes).catch((error: unknown) =>
      reject(
        error instanceof HttpProblem ? error : problem(400, 'The upload was interrupted.', 'bad_request'),
      ),
    );
  });
  if (reading.failure) throw reading.failure;
  return reading.upload;
}

/** The last `max` bytes of a stream, and how many it had. */
class RollingTail {
  private chunks: Uint8Array[] = [];
  private held = 0;
  total = 0;
  constructor(private readonly max: number) {}
  push(chunk: Uint8Array) {
    this.chunks.push(chunk);
    this.held += chunk.length;
    this.total += chunk.length;
    while (this.chunks.length > 1 && this.held - (this.chunks[0]?.length ?? 0) >= this.max) {
      this.held -= this.chunks.shift()?.length ?? 0;
    }
  }
  bytes(): Uint8Array {
    return Buffer.concat(this.chunks);
  }
}

/**
 * Every picture read against the central directory: its CRC-32 and size once inflated must be those the directory
 * declares, else it is damaged (and leaves `pictures`). An entry the directory lists that was not read is damaged
 * too (its local header was broken). No directory, or one larger than the tail kept: the zip is corrupt.
 */
function checkAgainstDirectory(upload: BulkUpload, crcs: Map<string, number>, tail: RollingTail) {
  const bytes = tail.bytes();
  const end = readZipEnd(bytes.subarray(Math.max(0, bytes.length - ZIP_END_MAX_BYTES)));
  // Where the directory starts within the bytes kept.
  const start = end ? end.directoryOffset - (tail.total - bytes.length) : -1;
  const listed =
    end && start >= 0 && start + end.directorySize <= bytes.length
      ? readCentralDirectory(bytes.subarray(start, start + end.directorySize), end.entries)
      : null;
  if (!listed) {
    upload.corrupt = true;
    return;
  }
  const byName = new Map(listed.map((entry) => [zipPathOf(entry.name), entry]));
  for (const [name, picture] of upload.pictures) {
    const entry = byName.get(name);
    if (!entry || entry.size !== picture.length || entry.crc32 !== crcs.get(name)) {
      upload.pictures.delete(name);
      upload.damaged.set(name, entry?.size ?? picture.length);
    }
  }
  for (const [name, entry] of byName) {
    if (name.endsWith('/') || upload.pictures.has(name) || upload.oversized.has(name)) continue;
    if (!upload.damaged.has(name)) upload.damaged.set(name, entry.size);
  }
}
