/**
 * The console's build: React with Vite into web/dist, which the service serves at `/`. Every
 * page is its own chunk (React.lazy routes); `manifest.json` lets the bench weigh what each page
 * loads. The `@server` alias reaches the server's TypeBox schemas for their types only.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  resolve: { alias: { '@server': path.resolve(here, '../src') } },
  build: {
    outDir: path.resolve(here, 'dist'),
    emptyOutDir: true,
    manifest: true,
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `npm run dev:web` proxies the API to a service started with `npm start`.
    proxy: { '/api': 'http://127.0.0.1:8000', '/ws': { target: 'ws://127.0.0.1:8000', ws: true }, '/app': 'http://127.0.0.1:8000' },
  },
});
