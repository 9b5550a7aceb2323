// The server tests that run against PostgreSQL too (vitest project server-postgres): one throwaway PostgreSQL
// server per run (scripts/postgres.mjs: initdb in a temporary folder, a free port above 55000), with a
// template database migrated and seeded for the fixture tenants. Every test database is a new database on it
// (setup-postgres.ts), copied from the template or empty. The server and its folder are removed at the end,
// when tests fail too (vitest runs the teardown) and when the run is interrupted (the exit handlers).
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../../scripts/postgres.mjs';
import { openPostgres } from '../../server/db/postgres';
import { prepareTestDb } from '../../server/testing/fixtures';
import { POSTGRES_SERVER, SEEDED_TEMPLATE } from './postgres-server';

export default async function setup(project: TestProject) {
  const started = performance.now();
  const server = await startThrowawayPostgres();
  const stop = () => server.stop();
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stop();
      process.exit(1);
    });
  }
  try {
    const admin = await openPostgres(server.adminUrl);
    await admin.exec(`create database ${SEEDED_TEMPLATE}`);
    await admin.close();
    const template = await openPostgres(server.url(SEEDED_TEMPLATE));
    await prepareTestDb(template);
    await template.close();
  } catch (error) {
    stop();
    throw error;
  }
  project.provide(POSTGRES_SERVER, { adminUrl: server.adminUrl });
  console.log(
    `PostgreSQL for the server tests ready on port ${server.port} in ${Math.round(performance.now() - started)} ms`,
  );
  return () => {
    stop();
    process.off('exit', stop);
  };
}
