// Reads a watchlist upload (routes/audit.ts) as it streams in: the multipart fields (domain, watch_type) and the
// csv (`upload`, or `file`), decoded and parsed piece by piece (WatchlistReader) with its limits enforced while it
// is read: the whole body, the file's bytes, the length of a row. The work done between two turns of the event loop
// is bounded by SLICE bytes, however large the chunks the body arrives in (a body limit that buffers, an in-process
// request): a 10 MB file is never parsed in one go, and a file refused at its first row is not parsed further.
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { type WatchlistParse, WatchlistReader } from '../../contract/domain/watchlist';
import { HttpProblem } from '../http/problem';

export interface WatchlistUploadLimits {
  /** The csv's bytes (WATCHLIST_MAX_BYTES). */
  fileBytes: number;
  /** The whole body: the csv and the multipart around it. */
  bodyBytes: number;
  /** WATCHLIST_MAX_LINE_CHARS unless given. */
  lineChars?: number;
}

export interface WatchlistUpload {
  /** The text fields by name (the last of a repeated one). */
  fields: Map<string, string>;
  /** The csv part, when one was sent (under `upload`, else `file`). */
  file: { name: string; bytes: number } | null;
  /** The csv has more than limits.fileBytes bytes: the rest of it was not read. */
  fileTooLarge: boolean;
  /** The csv is not UTF-8 text, or holds a NUL, which no text column can store. */
  notUtf8: boolean;
  /** The csv read as a watchlist (null without a file, or one too large or not UTF-8). */
  parsed: WatchlistParse | null;
}

/** Bytes handed to the multipart parser (and so to the csv parser) per turn of the event loop. */
const SLICE = 64 * 1024;

const FILE_FIELDS = ['upload', 'file'];

const invalid = () => new HttpProblem(400, 'The multipart body cannot be read.', 'invalid_multipart');

/**
 * The csv part, parsed as it streams in: too large, not UTF-8 text (or holding a NUL), or refused by the reader
 * stops the parsing, and the rest of the part is only counted.
 */
function readCsvPart(
  stream: Readable,
  file: { name: string; bytes: number },
  upload: WatchlistUpload,
  limits: WatchlistUploadLimits,
  today: Date,
) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = new WatchlistReader({
    today,
    previewRows: 0,
    ...(limits.lineChars ? { maxLineChars: limits.lineChars } : {}),
  });
  /** Still parsing: nothing has refused the file yet. */
  let reading = true;
  stream.on('data', (chunk: Buffer) => {
    file.bytes += chunk.length;
    if (!reading) return;
    if (file.bytes > limits.fileBytes) {
      upload.fileTooLarge = true;
      reading = false;
      return;
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      upload.notUtf8 = true;
      reading = false;
      return;
    }
    if (text.includes('\u0000')) {
      upload.notUtf8 = true;
      reading = false;
      return;
    }
    if (!reader.push(text)) reading = false;
  });
  stream.on('end', () => {
    if (upload.fileTooLarge || upload.notUtf8) return;
    if (reading) {
      try {
        const rest = decoder.decode();
        if (rest.includes('\u0000')) throw new Error('NUL');
        reader.push(rest);
      } catch {
        upload.notUtf8 = true;
        return;
      }
    }
    upload.parsed = reader.end();
  });
}

/**
 * The upload of a watchlist, read as it streams. Throws 413 file_too_large (the body is larger than
 * limits.bodyBytes) and 400 invalid_multipart (no boundary, a body cut short or malformed, a client that went away).
 * A file refused by its content (not UTF-8, a quote, a row too long) is not parsed further, but the rest of the body
 * is still read (and dropped), so that the client, which is still sending, gets the answer.
 */
export async function readWatchlistUpload(
  request: Request,
  limits: WatchlistUploadLimits,
  options: { today: Date },
): Promise<WatchlistUpload> {
  const tooLarge = () =>
    new HttpProblem(413, `The file is larger than ${limits.fileBytes} bytes.`, 'file_too_large');
  const contentType = request.headers.get('content-type') ?? '';
  if (Number(request.headers.get('content-length') ?? '0') > limits.bodyBytes) throw tooLarge();
  if (!request.body) throw invalid();

  const upload: WatchlistUpload = {
    fields: new Map(),
    file: null,
    fileTooLarge: false,
    notUtf8: false,
    parsed: null,
  };
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { 'content-type': contentType },
      limits: { fields: 16, files: 4, parts: 20, fieldSize: 4096, fileSize: limits.fileBytes + 1 },
    });
  } catch {
    throw invalid();
  }

  let failure: HttpProblem | null = null;
  let settle: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const fail = (problem: HttpProblem) => {
    failure ??= problem;
    settle();
  };

  // Done once busboy has closed and every part's stream has too (a part's 'end' may come after busboy's 'close').
  let openParts = 0;
  let parserClosed = false;
  const settleWhenClosed = () => {
    if (parserClosed && openParts === 0) settle();
  };

  bb.on('field', (name, value) => {
    upload.fields.set(name, value);
  });
  bb.on('file', (name, stream, info) => {
    // Busboy emits a body cut short inside a part (no closing boundary, a client that went away) on the part's own
    // stream: an 'error' nobody listens to would end the process.
    stream.on('error', () => fail(invalid()));
    openParts++;
    stream.on('close', () => {
      openParts--;
      settleWhenClosed();
    });
    // The first csv part is read; `upload` is the portal's name, `file` the API's older one.
    if (!FILE_FIELDS.includes(name) || upload.file) {
      stream.resume();
      return;
    }
    // The name is kept with the upload or its refusal: a NUL in it would make PostgreSQL refuse the row.
    const file = { name: (info.filename ?? '').replaceAll('\u0000', ''), bytes: 0 };
    upload.file = file;
    readCsvPart(stream, file, upload, limits, options.today);
  });
  bb.on('error', () => fail(invalid()));
  bb.on('close', () => {
    parserClosed = true;
    settleWhenClosed();
  });

  const body = request.body.getReader();
  const feed = async () => {
    let total = 0;
    /** Bytes handed to busboy since the event loop last had a turn. */
    let unyielded = 0;
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await body.read();
      } catch {
        // The client went away, or the body could not be read.
        fail(invalid());
        return;
      }
      if (failure) return;
      if (next.done) break;
      total += next.value.length;
      if (total > limits.bodyBytes) {
        fail(tooLarge());
        return;
      }
      for (let at = 0; at < next.value.length && !failure; at += SLICE) {
        // Chunks already queued are read without a turn of the event loop in between: a turn is given here.
        if (unyielded >= SLICE) {
          await new Promise((resolve) => setImmediate(resolve));
          unyielded = 0;
        }
        const piece = next.value.subarray(at, at + SLICE);
        unyielded += piece.length;
        if (!bb.write(piece)) await Promise.race([new Promise((resolve) => bb.once('drain', resolve)), done]);
      }
      if (failure) return;
    }
    bb.end();
  };
  void feed().catch(() => fail(invalid()));
  await done;
  if (failure) {
    await body.cancel().catch(() => {});
    throw failure;
  }
  return upload;
}
