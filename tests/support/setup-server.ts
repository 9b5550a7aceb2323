// Setup file of the server tests: in-memory databases (openPglite) and createTestDb start from the images
// of this run (pglite-global-setup.ts) instead of running initdb, migrations and seed each time; so does the
// in-memory database of a server a test starts.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { seededFor, setInMemoryDatabaseFactory } from '../../server/db/open-db';
import { openPglite, type PgliteImage, setNewDatabaseImage } from '../../server/db/pglite';
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
  const empty = lazily(images.empty);
  const seeded = lazily(images.seeded.path);
  setNewDatabaseImage(empty);
  setTestDbImage(seeded, images.seeded.tenants);
  // A server's own database (startServer with memory://) starts seeded when it would seed the same tenants.
  setInMemoryDatabaseFactory((purpose) =>
    openPglite('memory://', { from: seededFor(purpose, images.seeded.tenants) ? seeded() : empty() }),
  );
}
