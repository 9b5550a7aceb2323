// Setup file of the server tests: in-memory databases (openPglite) and createTestDb start from the images
// of this run (pglite-global-setup.ts) instead of running initdb, migrations and seed each time; so does the
// database of a server a test starts, in memory or in a new data folder.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { seededFor, setTestDatabaseFactory } from '../../server/db/open-db';
import {
  openPglite,
  type PgliteImage,
  pgliteImageOf,
  setNewDatabaseImage,
  setTestSharedBuffers,
} from '../../server/db/pglite';
import { setTestDbImage } from '../../server/testing/fixtures';
import { PGLITE_IMAGES } from './pglite-images';

const lazily = (path: string) => {
  let image: PgliteImage | undefined;
  return () => {
    image ??= pgliteImageOf(readFileSync(path));
    return image;
  };
};

setTestSharedBuffers('16MB');
const images = inject(PGLITE_IMAGES);
if (images) {
  const empty = lazily(images.empty);
  const seeded = lazily(images.seeded.path);
  setNewDatabaseImage(empty);
  setTestDbImage(seeded, images.seeded.tenants);
  // A server's own database (startServer in memory or on a new data folder) starts seeded when it would seed
  // the same tenants; an existing data folder opens as it is (openPglite ignores `from` for it).
  setTestDatabaseFactory((purpose, dataDir) =>
    openPglite(dataDir, { from: seededFor(purpose, images.seeded.tenants) ? seeded() : empty() }),
  );
}
