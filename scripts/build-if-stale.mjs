/**
 * `npm start` runs this first: it builds the service (tsc) and the console (vite) only when
 * their sources are newer than what was built, so a restart by a service manager starts in
 * about a second instead of waiting for two compilers. The first `npm start` after `npm ci`
 * (or after a `git pull`) still builds, because the sources are newer then. Plain JavaScript run
 * by plain node: a restart must not wait for a TypeScript loader to start (tsx cost about a second
 * of the three a restart may take). Its TypeScript callers read build-if-stale.d.mts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * @typedef {object} Part
 * @property {string} name
 * @property {string[]} inputs What the build reads; a newer file here makes the build stale.
 * @property {string} output Written by every build; missing or older than an input means stale.
 * @property {string[][]} commands Run in order; each names a program of node_modules/.bin, or `node`.
 */

/** @type {Part[]} */
const PARTS = [
  {
    // tsc (types checked, dist/src/ for the CLI tools), then the bundle `npm start` runs.
    name: 'service',
    inputs: ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-server.mjs'],
    output: 'dist/server/server.js',
    commands: [
      ['tsc', '-p', 'tsconfig.build.json'],
      ['node', 'scripts/bundle-server.mjs'],
    ],
  },
  {
    // The server's schemas reach the console as types only, which never change its output.
    name: 'console',
    inputs: ['web/src', 'web/index.html', 'web/public', 'web/vite.config.ts', 'package.json'],
    output: 'web/dist/.vite/manifest.json',
    commands: [['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']],
  },
];

/**
 * The newest modification time of the files under `p` (a file or a directory), 0 when absent.
 * @param {string} p
 * @returns {number}
 */
function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const d of fs.readdirSync(p, { recursive: true, withFileTypes: true })) {
    if (d.isFile()) max = Math.max(max, fs.statSync(path.join(d.parentPath, d.name)).mtimeMs);
  }
  return max;
}

/**
 * @param {Part} part
 * @param {string} root
 * @returns {boolean}
 */
function isStale(part, root) {
  const out = path.join(root, part.output);
  if (!fs.existsSync(out)) return true;
  const builtAt = fs.statSync(out).mtimeMs;
  return part.inputs.some((p) => newest(path.join(root, p)) > builtAt);
}

/** @param {string} root */
function webBuildIsStale(root = ROOT) {
  return isStale(PARTS[1], root) || !fs.existsSync(path.join(root, 'web/dist/index.html'));
}

/**
 * Builds each stale part (or only the one named); returns the names of the parts it built.
 * @param {string} [root]
 * @param {'service' | 'console'} [only]
 * @returns {string[]}
 */
export function buildIfStale(root = ROOT, only) {
  /** @type {string[]} */
  const built = [];
  for (const part of PARTS) {
    if (only && part.name !== only) continue;
    if (part.name === 'console' ? !webBuildIsStale(root) : !isStale(part, root)) continue;
    process.stderr.write(`${part.name}: sources are newer than the build, building (${part.commands.map((c) => c.join(' ')).join(' && ')})…\n`);
    for (const [cmd, ...args] of part.commands) {
      // NODE_ENV set explicitly: under vitest it is `test`, and vite would then bundle React's
      // development build (three times the size, several times slower to render).
      execFileSync(cmd === 'node' ? process.execPath : path.join(root, 'node_modules/.bin', cmd), args, {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'production' },
      });
    }
    built.push(part.name);
  }
  return built;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  buildIfStale();
}
