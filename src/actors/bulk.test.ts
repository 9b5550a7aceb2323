import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiError } from '../api/errors';
import type { Runtime } from '../runtime/context';
import { bulkRegistrationLogic, checkBulkFiles, listZip } from './bulk';

// The browser's check before upload: the zip's listing, the metadata, and every row against both.

/** A JPEG by its first bytes, of the given size. */
const jpeg = (size: number) => {
  const bytes = new Uint8Array(size).fill(7);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
};
const png = (size: number) => {
  const bytes = new Uint8Array(size).fill(9);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
};
const zipFile = (entries: Record<string, Uint8Array>, level: 0 | 6 = 6) =>
  new File([zipSync(entries, { level }) as Uint8Array<ArrayBuffer>], 'photos.zip', {
    type: 'application/zip',
  });
const csv = (text: string, name = 'people.csv') => new File([text], name, { type: 'text/csv' });
const HEADER = 'email,first_name,last_name,acs_id,image\n';

describe('listZip', () => {
  it('lists the pictures with their inflated sizes, without folders', async () => {
    const listing = await listZip(zipFile({ 'a.jpg': jpeg(20_000), 'photos/': new Uint8Array(0) }));
    expect([...(listing ?? [])]).toEqual([['a.jpg', 20_000]]);
  });

  it('finds no zip in a damaged or empty file', async () => {
    expect(await listZip(new File([new Uint8Array(4000).fill(3)], 'x.zip'))).toBeNull();
    const whole = zipSync({ 'a.jpg': jpeg(20_000) });
    expect(
      await listZip(new File([whole.subarray(0, whole.length - 10) as Uint8Array<ArrayBuffer>], 'x.zip')),
    ).toBeNull();
    expect(await listZip(zipFile({}))).toBeNull();
  });
});

describe('checkBulkFiles', () => {
  const media = zipFile({ 'ane.jpg': jpeg(20_000), 'jon.jpg': jpeg(20_000), 'tiny.jpg': jpeg(100) });

  it('passes a selection whose every row is good', async () => {
    const metadata = csv(`${HEADER}ane@x.es,Ane,Etxeberria,A-1,ane.jpg\njon@x.es,Jon,Ruiz,A-2,jon.jpg\n`);
    expect(await checkBulkFiles({ metadata, media, acsIdSchema: 'string64' })).toEqual({
      rows: 2,
      problems: [],
      fatal: null,
    });
  });

  it('names each row that is wrong', async () => {
    const metadata = csv(
      `${HEADER}ane@x.es,Ane,Etxeberria,A-1,ane.jpg\nane@x.es,Jon,Ruiz,A-2,missing.jpg\nkoldo@x.es,Koldo,Lete,70000,tiny.jpg\n`,
    );
    const result = await checkBulkFiles({ metadata, media, acsIdSchema: 'wiegand' });
    expect(result.problems).toEqual([
      { row: 1, field: 'acs_id', code: 'wiegand_range' },
      { row: 2, field: 'email', code: 'duplicate_row' },
      { row: 2, field: 'acs_id', code: 'wiegand_range' },
      { row: 2, field: 'image', code: 'image_not_found' },
      { row: 3, field: 'acs_id', code: 'wiegand_range' },
      { row: 3, field: 'image', code: 'delegated_image_too_small' },
    ]);
  });

  it('judges each photo by its bytes, stored or deflated, as the server does: not a JPG or PNG inside', async () => {
    for (const level of [0, 6] as const) {
      const photos = zipFile(
        {
          'ane.jpg': jpeg(20_000),
          'leire.png': png(20_000),
          'text.jpg': new TextEncoder().encode('not a picture '.repeat(1000)),
          'gif.png': new Uint8Array(20_000).fill(0x47),
        },
        level,
      );
      const metadata = csv(
        `${HEADER}ane@x.es,Ane,E,A-1,ane.jpg\nleire@x.es,Leire,U,A-2,leire.png\n` +
          `text@x.es,Text,T,A-3,text.jpg\ngif@x.es,Gif,G,A-4,gif.png\nagain@x.es,Again,A,A-5,text.jpg\n`,
      );
      expect((await checkBulkFiles({ metadata, media: photos, acsIdSchema: 'string64' })).problems).toEqual([
        { row: 3, field: 'image', code: 'image_not_picture' },
        { row: 4, field: 'image', code: 'image_not_picture' },
        { row: 5, field: 'image', code: 'image_not_picture' },
      ]);
    }
  });

  it('calls a photo whose entry cannot be read corrupt, per row', async () => {
    const bytes = zipSync({ 'ane.jpg': jpeg(20_000), 'jon.jpg': jpeg(20_000) }, { level: 0 });
    // The local header of the first entry (at offset 0) loses its signature; the directory still lists it.
    bytes[0] = 0;
    const metadata = csv(`${HEADER}ane@x.es,Ane,E,A-1,ane.jpg\njon@x.es,Jon,R,A-2,jon.jpg\n`);
    const media = new File([bytes as Uint8Array<ArrayBuffer>], 'photos.zip');
    expect(await checkBulkFiles({ metadata, media, acsIdSchema: 'string64' })).toEqual({
      rows: 2,
      problems: [{ row: 1, field: 'image', code: 'image_corrupt' }],
      fatal: null,
    });
  });

  it('refuses invalid metadata, too many elements and a corrupt zip as a whole', async () => {
    expect(
      (await checkBulkFiles({ metadata: csv('[{"email":', 'p.json'), media, acsIdSchema: 'string64' })).fatal,
    ).toEqual({ code: 'metadata_invalid' });
    const many = HEADER + Array.from({ length: 1001 }, (_, i) => `p${i}@x.es,A,B,A-${i},ane.jpg\n`).join('');
    expect((await checkBulkFiles({ metadata: csv(many), media, acsIdSchema: 'string64' })).fatal).toEqual({
      code: 'too_many_elements',
      count: 1001,
    });
    const broken = new File([new Uint8Array(4000).fill(1)], 'photos.zip');
    expect(
      (
        await checkBulkFiles({
          metadata: csv(`${HEADER}a@x.es,A,B,A-1,ane.jpg\n`),
          media: broken,
          acsIdSchema: 'string64',
        })
      ).fatal,
    ).toEqual({ code: 'media_corrupt' });
  });
});

describe('the upload, when it fails', () => {
  const files = {
    metadata: csv(`${HEADER}ane@x.es,Ane,Etxeberria,A-1,ane.jpg\n`),
    media: zipFile({ 'ane.jpg': jpeg(20_000) }),
  };
  /** The screen's machine over an API client whose upload fails with `error`: where it ends, and its files. */
  async function uploadFailingWith(error: ApiError) {
    const client = { post: () => Promise.reject(error) };
    const runtime = { apiClient: async () => client } as unknown as Pick<Runtime, 'apiClient'>;
    const actor = createActor(bulkRegistrationLogic(runtime), { input: { acsIdSchema: 'string64' } }).start();
    actor.send({ type: 'files.chosen', ...files });
    await waitFor(actor, (s) => s.matches('ready'), { timeout: 5000 });
    actor.send({ type: 'upload' });
    return waitFor(actor, (s) => s.matches('failed'));
  }

  it('says the server failed on a 5xx, not that the upload did not finish, and keeps the files to send again', async () => {
    const failed = await uploadFailingWith(
      new ApiError({ kind: 'http', method: 'POST', path: '/public/singles/bulk', status: 500 }),
    );
    expect(failed.matches({ failed: 'serverError' })).toBe(true);
    expect(failed.context.files).toEqual(files);
    expect(failed.can({ type: 'upload' })).toBe(true);
  });

  it('says the upload did not finish when no answer came', async () => {
    const failed = await uploadFailingWith(
      new ApiError({ kind: 'network', method: 'POST', path: '/public/singles/bulk' }),
    );
    expect(failed.matches({ failed: 'network' })).toBe(true);
    expect(failed.context.files).toEqual(files);
  });
});
