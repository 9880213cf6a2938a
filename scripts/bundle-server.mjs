/**
 * The second step of the service's build, after tsc: bundles tsc's output (dist/src/server.js)
 * into dist/server/ with esbuild. Node keeps a record, the source text and compiled code for every
 * ES module it loads; the service's own ~300 modules plus TypeBox's, Kysely's and jose's (~1,000
 * more, all ES modules) cost several MB of resident memory in every process, which one bundle
 * avoids. Only the service's own code and those ES-module packages go into the bundle; every other
 * package (native ones above all) stays an import of node_modules, resolved at run time as
 * before. Dynamic imports stay dynamic (separate chunks loaded on first use), so what loads
 * lazily still does: the primary of WORKERS>1 never loads the app. The stat helper thread and the
 * spawn helper process are entry points of their own, beside the chunk that starts them, as they
 * are in dist/src (each is found by its file name next to that chunk). Plain JavaScript
 * run by plain node, like build-if-stale.mjs, which runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Packages bundled: pure JavaScript ES modules, hundreds of files each. */
const BUNDLED = new Set(['typebox', 'kysely', 'jose']);

/**
 * @param {string} [root]
 * @returns {Promise<void>}
 */
export async function bundleServer(root = ROOT) {
  const outdir = path.join(root, 'dist/server');
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: {
      server: 'dist/src/server.js',
      'stat-thread': 'dist/src/adapters/fs/stat-thread.js',
      'spawn-helper-main': 'dist/src/adapters/rsync/spawn-helper-main.js',
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [
      {
        name: 'external-packages',
        setup(b) {
          // A bare specifier (a package, or node:) whose package is not in BUNDLED stays external.
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
            return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
          });
        },
      },
    ],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await bundleServer();
}
