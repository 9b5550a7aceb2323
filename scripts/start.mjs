// npm start: build the SPA if needed, then serve everything (SPA, tenant assets, API, identity provider,
// database) on PORT, and say where and as whom to sign in. `--lan` (npm run start:lan): over https on this
// machine's network address (server/start-lan.ts).
import { spawn } from 'node:child_process';
import { buildIfNeeded } from './build-if-needed.mjs';
import { importServer } from './bundle-server.mjs';

// glibc gives every thread that allocates its own malloc arena (libuv's threads hashing sign-ins, libvips' threads
// decoding pictures), and keeps them: two are enough for the server and keep 100-160 MB off its peak under
// parallel uploads (docs/heavy-uploads.md). glibc reads the setting as the process starts, so without it the
// server runs in a child that has it. The child has its own process group, so a Ctrl-C reaches it once, from here
// (a second SIGINT means "stop now" to the server).
if (process.platform === 'linux' && !process.env.MALLOC_ARENA_MAX) {
  const child = spawn(process.execPath, process.argv.slice(1), {
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
    env: { ...process.env, MALLOC_ARENA_MAX: '2' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await serve();
}

async function serve() {
  buildIfNeeded();
  const { main, readyBanner, lanBanner } = await importServer();
  const started = performance.now();
  // npm run start:lan: https on this machine's network address, for a phone on the same network (docs/phone.md).
  const lan = process.argv.includes('--lan');
  const running = await main(lan ? ['--lan'] : []);
  // /health answers 503 until the biometric engine has loaded its models (server/readiness.ts): say so, and
  // give the addresses once the portal is ready for a person.
  console.log('Loading the biometric engine (face models, OCR)…');
  await running.ready;
  console.log(`Ready in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  for (const line of readyBanner(process.env, lan ? running.url : undefined)) console.log(line);
  if (lan) for (const line of await lanBanner(running.url)) console.log(line);
}
