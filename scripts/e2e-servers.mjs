// The servers the browser journeys run against, started side by side: Playwright starts its webServer entries one
// after the other, and each server spends its start seeding and warming the engine on one core, so on two cores
// two at once take about as long as one. E2E_SERVERS holds each server's environment (playwright.config.ts);
// each runs scripts/e2e-server.mjs. Playwright ends this process's group at the end of the run, and the servers
// with it; a server that exits on its own ends this process, so a failed start is not waited out.
import { spawn } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { buildIfNeeded } from './build-if-needed.mjs';
import { bundleServer } from './bundle-server.mjs';

const E2E_PUBLIC_DIR = '.data/e2e-public';
const servers = JSON.parse(process.env.E2E_SERVERS ?? '[]');
if (!Array.isArray(servers) || servers.length === 0) {
  console.error('E2E_SERVERS: a JSON array of environments, one per server');
  process.exit(2);
}
// Once, before the servers: two builds at once would write the same dist/ (and .server/).
buildIfNeeded();
await bundleServer();
// The journeys' public folder (PUBLIC_DIR of a server that names it): the shipped one, plus the tenants that exist
// only for a setting neither shipped tenant has (tests/fixtures/tenants/), so that every screen can be reached.
rmSync(E2E_PUBLIC_DIR, { recursive: true, force: true });
cpSync('public', E2E_PUBLIC_DIR, { recursive: true });
cpSync('tests/fixtures/tenants', `${E2E_PUBLIC_DIR}/tenants`, { recursive: true });
const children = servers.map((env) =>
  spawn(process.execPath, ['scripts/e2e-server.mjs'], { env: { ...process.env, ...env }, stdio: 'inherit' }),
);
for (const [index, child] of children.entries()) {
  child.on('exit', (code, signal) => {
    console.error(`The e2e server on port ${servers[index].PORT} ended (${signal ?? `exit ${code}`}).`);
    for (const other of children) other.kill('SIGKILL');
    process.exit(code ?? 1);
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(0);
  });
}
