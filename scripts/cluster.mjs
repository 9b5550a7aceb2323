// npm run cluster: the portal as several stateless server processes over one PostgreSQL database behind a real load
// balancer, all on this machine and in the foreground (Ctrl-C stops everything).
//
//   PORT (8080)            the balancer: Debian's HAProxy, round-robin, health checks on /health
//   CLUSTER_PROCESSES (2)  server processes, on PORT+1, PORT+2, … (127.0.0.1 only: reach them through PORT)
//   DATABASE_URL           the PostgreSQL they share; without it a throwaway server is started (scripts/postgres.mjs)
//                          and removed at the end
//   CLUSTER_STATE_FILE     where to write {balancer, databaseUrl, processes: [{port, pid}]} (the cross-process
//                          journey reads it; databaseUrl only for a throwaway database)
//
// Every process gets the same settings (TRUST_PROXY=1, PUBLIC_PORT=PORT so the known origins are the
// balancer's, DATABASE_URL, and the rest of this environment). A process that exits (SIGTERM drains its
// requests first: the server's close()) is started again on its port; meanwhile the balancer's health check
// takes it out and sends its requests to the others.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildIfNeeded } from './build-if-needed.mjs';
import { bundleServer, SERVER_BUNDLE } from './bundle-server.mjs';
import { ensureHaproxy, haproxyPath } from './ensure-haproxy.mjs';
import { startThrowawayPostgres } from './postgres.mjs';

const balancerPort = Number(process.env.PORT ?? 8080);
const count = Math.max(1, Number(process.env.CLUSTER_PROCESSES ?? 2) || 2);
const host = process.env.HOST ?? '127.0.0.1';
const stateFile = process.env.CLUSTER_STATE_FILE;
const dir = mkdtempSync(join(tmpdir(), 'portal-cluster-'));
const log = (line) => console.log(`[cluster] ${line}`);

let stopping = false;
let sharedDatabaseUrl;
let postgres;
let haproxy;
const processes = Array.from({ length: count }, (_, i) => ({
  index: i,
  port: balancerPort + 1 + i,
  child: undefined,
}));

function writeState() {
  if (!stateFile) return;
  mkdirSync(dirname(stateFile), { recursive: true });
  const state = {
    balancer: `http://localhost:${balancerPort}`,
    databaseUrl: sharedDatabaseUrl,
    processes: processes.map((p) => ({ port: p.port, pid: p.child?.pid ?? null })),
  };
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
}

async function healthy(port, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the process on port ${port} did not become healthy`);
}

function startProcess(p, databaseUrl) {
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(p.port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TRUST_PROXY: '1',
      PUBLIC_PORT: String(balancerPort),
    },
  });
  p.child = child;
  writeState();
  child.on('exit', (code, signal) => {
    if (p.child === child) p.child = undefined;
    if (stopping) return;
    log(`process ${p.index + 1} (port ${p.port}) exited (${signal ?? code}); starting it again`);
    startProcess(p, databaseUrl);
  });
  return child;
}

function haproxyConfig() {
  const servers = processes
    .map((p) => `  server p${p.index + 1} 127.0.0.1:${p.port} check inter 1s fall 2 rise 1`)
    .join('\n');
  return `global
  maxconn 4096
  log stderr format short local0 notice

defaults
  mode http
  log global
  option dontlognull
  timeout connect 5s
  timeout client 120s
  timeout server 120s
  timeout http-request 30s
  # A busy process answers its health check late rather than never: only a refused connection (a stopped
  # process) or two missed checks take it out.
  timeout check 5s
  # A process that is stopping refuses new connections: send the request to another one.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
  # One connection to a process per request: none is reused after the process has closed it (draining).
  option http-server-close

frontend portal
  bind ${host}:${balancerPort}
  # The server trusts these (TRUST_PROXY=1): the client's address (appended) and the scheme it came in on.
  option forwardfor
  http-request set-header X-Forwarded-Proto http
  default_backend processes

backend processes
  balance roundrobin
  # Which process answered (p1, p2, …): the cross-process journey checks that both served it.
  http-response set-header X-Served-By %s
  option httpchk
  http-check send meth GET uri /health ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
${servers}
`;
}

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  log('stopping: the processes drain their requests');
  await Promise.all(
    processes.map(
      (p) =>
        new Promise((resolve) => {
          if (!p.child || p.child.exitCode !== null) return resolve();
          p.child.once('exit', resolve);
          p.child.kill('SIGTERM');
        }),
    ),
  );
  haproxy?.kill('SIGTERM');
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
  if (stateFile) rmSync(stateFile, { force: true });
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  await ensureHaproxy();
  buildIfNeeded();
  await bundleServer();
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    postgres = await startThrowawayPostgres();
    databaseUrl = postgres.adminUrl;
    sharedDatabaseUrl = databaseUrl;
    log(`throwaway PostgreSQL on port ${postgres.port} (removed at the end; set DATABASE_URL to keep one)`);
  }
  // The first process migrates and seeds a new database; the others start once it is ready (and would wait on
  // the migration lock anyway).
  for (const p of processes) {
    startProcess(p, databaseUrl);
    await healthy(p.port);
    log(`process ${p.index + 1} ready on 127.0.0.1:${p.port} (pid ${p.child?.pid})`);
  }
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig());
  haproxy = spawn(haproxyPath(), ['-f', config, '-db'], { stdio: ['ignore', 'inherit', 'inherit'] });
  haproxy.on('exit', (code) => {
    if (!stopping) {
      log(`haproxy exited (${code})`);
      void shutdown(1);
    }
  });
  await healthy(balancerPort);
  writeState();
  log(
    `${count} processes behind HAProxy: gambling → http://localhost:${balancerPort}   demo → http://demo.localhost:${balancerPort}`,
  );
} catch (error) {
  console.error(`[cluster] failed to start: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
}
