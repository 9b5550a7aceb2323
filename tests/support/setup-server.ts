// Setup file of the server tests: in-memory databases (openPglite) and createTestDb start from the images
// of this run (pglite-global-setup.ts) instead of running initdb, migrations and seed each time.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type PgliteImage, setNewDatabaseImage } from '../../server/db/pglite';
import { setTestDbImage } from '../../server/testing/fixtures';
import { PGLITE_IMAGES } from './pglite-images';

const lazily = (path: string) => {
  let image: PgliteImage | undefined;
  return () => {
    image ??= new Blob([readFileSync(path)]);
    return image;
  };
};

const images = inject(PGLITE_IMAGES);
if (images) {
  setNewDatabaseImage(lazily(images.empty));
  setTestDbImage(lazily(images.seeded.path), images.seeded.tenants);
}
