import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './scripts/vite-precompress';

// In development the reference server (API, identity provider, mailbox) runs on API_PORT and Vite
// proxies to it, so the browser still sees one origin on PORT.
const apiPort = Number(process.env.API_PORT ?? 8081);
const apiTarget = `http://127.0.0.1:${apiPort}`;

// The descriptions of the statecharts are for the Stately visualizer (QA reads them there); the production
// bundle leaves them out.
const dropMachineDescriptions: Plugin = {
  name: 'drop-machine-descriptions',
  apply: 'build',
  enforce: 'pre',
  transform(code, id) {
    if (!/\/machines\/[\w-]+\.machine\.ts$/.test(id)) return null;
    return { code: code.replace(/\bdescription:\s*'(?:[^'\\\n]|\\.)*',/g, ''), map: null };
  },
};

export default defineConfig({
  plugins: [react(), tailwindcss(), dropMachineDescriptions, precompress()],
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 300,
  },
  server: {
    port: Number(process.env.PORT ?? 8080),
    strictPort: true,
    allowedHosts: ['.localhost', 'localhost'],
    // The Host header is kept (changeOrigin off): the identity provider's issuer is the origin the browser
    // uses, localhost:8080 or demo.localhost:8080, not the server's own port.
    proxy: Object.fromEntries(
      ['/api', '/auth', '/dev', '/health'].map((path) => [path, { target: apiTarget, changeOrigin: false }]),
    ),
  },
});
