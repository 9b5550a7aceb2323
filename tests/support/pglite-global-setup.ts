// Server tests: the PGlite images every test database starts from, made once per run (vitest globalSetup).
// Without them each in-memory database runs initdb (about 3 s of CPU alone here, 5 s and more on a busy
// machine); loading a copy of an image takes a fraction of that, and each test still has a database of its
// own. The images are made from the current migrations and seed data on every run, so they cannot be stale.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgliteImage, setNewDatabaseImage } from '../../server/db/pglite';
import { testDbImage } from '../../server/testing/fixtures';
import { PGLITE_IMAGES, type PgliteImages } from './pglite-images';

export default async function setup(project: TestProject) {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'portal-pglite-'));
  const save = async (name: string, image: Blob) => {
    const path = join(dir, name);
    writeFileSync(path, new Uint8Array(await image.arrayBuffer()));
    return path;
  };
  const empty = await pgliteImage();
  setNewDatabaseImage(empty);
  const tenants = ['gambling', 'demo'];
  const images: PgliteImages = {
    empty: await save('empty.tar', empty),
    seeded: { tenants, path: await save('seeded.tar', await testDbImage(tenants)) },
  };
  setNewDatabaseImage(undefined);
  project.provide(PGLITE_IMAGES, images);
  console.log(`PGlite images of the test databases ready in ${Math.round(performance.now() - started)} ms`);
  return () => rmSync(dir, { recursive: true, force: true });
}
