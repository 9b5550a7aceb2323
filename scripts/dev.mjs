// npm run dev: the reference server on API_PORT (no SPA) and Vite with HMR on PORT, proxying to it.
import { spawn } from 'node:child_process';

const port = Number(process.env.PORT ?? 8080);
const apiPort = Number(process.env.API_PORT ?? port + 1);
const children = [
  spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    stdio: 'inherit',
    // The browser's origin is Vite's port (the Host header is kept): the identity provider's known origins
    // are localhost:PORT and <tenant>.localhost:PORT, unless PUBLIC_URL or PUBLIC_PORT says otherwise.
    env: {
      ...process.env,
      PUBLIC_PORT: process.env.PUBLIC_PORT || String(port),
      PORT: String(apiPort),
      SERVE_SPA: 'false',
    },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--port', String(port), '--strictPort'], {
    stdio: 'inherit',
    env: { ...process.env, API_PORT: String(apiPort) },
  }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
