/**
 * The console's build: React with Vite into web/dist, which the service serves at `/`. Every
 * page is its own chunk (React.lazy routes); `manifest.json` lets the bench weigh what each page
 * loads. The `@server` alias reaches the server's TypeBox schemas for their types only.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Writes a brotli and a gzip copy beside every text asset once the build is done; the service
 * sends whichever the browser accepts (@fastify/static's preCompressed), so nothing is compressed
 * per request and a first visit over a real network moves about a third of the bytes.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'fleet-precompress',
    apply: 'build',
    configResolved(c) {
      outDir = c.build.outDir;
    },
    closeBundle() {
      for (const entry of fs.readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(js|css|html|svg|json)$/.test(entry.name) || entry.name === 'manifest.json') continue;
        const file = path.join(entry.parentPath, entry.name);
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * This build's id (package version + build time), compiled into the code and written into
 * index.html: a page whose chunks 404 after an upgrade compares the two to reload once.
 */
const BUILD_ID = `${JSON.parse(fs.readFileSync(path.resolve(here, '../package.json'), 'utf8')).version}+${Date.now().toString(36)}`;

function buildId(): Plugin {
  return {
    name: 'fleet-build-id',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { name: 'fleet-build', content: BUILD_ID }, injectTo: 'head' }],
  };
}

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react(), precompress(), buildId()],
  define: { __FLEET_BUILD__: JSON.stringify(BUILD_ID) },
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
