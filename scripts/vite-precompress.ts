// Writes a Brotli (quality 11) and a gzip (level 9) copy beside every text file of the build, when the copy
// is smaller: server/static-files.ts sends the best one the browser accepts, so the server never spends
// time compressing the bundle and the phone gets the smallest bytes there are.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const TEXT = /\.(?:js|mjs|css|html|svg|json|md|txt|webmanifest|ico|xml|map)$/i;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // A dot-folder (the build's .vite/manifest.json) is for the server's eyes, never served: nothing to encode.
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) yield* filesUnder(path);
    } else if (entry.isFile() && TEXT.test(entry.name)) yield path;
  }
}

/** The encoded copies of one file that are worth keeping: name and size of each. */
export async function precompressFile(path: string): Promise<{ file: string; bytes: number }[]> {
  const original = await readFile(path);
  const copies = await Promise.all([
    brotli(original, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
      },
    }).then((bytes) => ({ file: `${path}.br`, bytes })),
    gz(original, { level: 9 }).then((bytes) => ({ file: `${path}.gz`, bytes })),
  ]);
  const kept = copies.filter((copy) => copy.bytes.length < original.length);
  await Promise.all(kept.map((copy) => writeFile(copy.file, copy.bytes)));
  return kept.map((copy) => ({ file: copy.file, bytes: copy.bytes.length }));
}

/** Compresses everything in `dir` (recursively); returns how many copies it wrote. */
export async function precompressDir(dir: string): Promise<number> {
  const pending: Promise<{ file: string; bytes: number }[]>[] = [];
  for await (const path of filesUnder(dir)) {
    // Copies are written after their file, so the server can tell a stale copy by its older mtime.
    if ((await stat(path)).size === 0) continue;
    pending.push(precompressFile(path));
  }
  return (await Promise.all(pending)).flat().length;
}

export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const written = await precompressDir(outDir);
      config.logger.info(`precompress: ${written} Brotli/gzip copies in ${config.build.outDir}`);
    },
  };
}
