import { defineConfig } from 'vite';

// Builds bench/media: a page that runs the portal's image preparation, for `npm run bench`.
export default defineConfig({
  root: 'bench/media',
  base: '/',
  logLevel: 'warn',
  build: { outDir: '../results/media-dist', emptyOutDir: true, target: 'es2022' },
});
