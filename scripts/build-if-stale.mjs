/**
 * `npm start` runs this first: it builds the service (tsc) and the console (vite) only when
 * their sources are newer than what was built, so a restart by a service manager starts in
 * about a second instead of waiting for two compilers. The first `npm start` after `npm ci`
 * (or after a `git pull`) still builds, because the sources are newer then.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

interface Part {
  name: string;
  /** What the build reads; a newer file here makes the build stale. */
  inputs: string[];
  /** Written by every build; missing or older than an input means stale. */
  output: string;
  command: string[];
}

const PARTS: Part[] = [
  {
    name: 'service',
    inputs: ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'],
    output: 'dist/src/server.js',
    command: ['tsc', '-p', 'tsconfig.build.json'],
  },
  {
    // The server's schemas reach the console as types only, which never change its output.
    name: 'console',
    inputs: ['web/src', 'web/index.html', 'web/public', 'web/vite.config.ts', 'package.json'],
    output: 'web/dist/.vite/manifest.json',
    command: ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
  },
];

/** The newest modification time of the files under `p` (a file or a directory), 0 when absent. */
function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const d of fs.readdirSync(p, { recursive: true, withFileTypes: true })) {
    if (d.isFile()) max = Math.max(max, fs.statSync(path.join(d.parentPath, d.name)).mtimeMs);
  }
  return max;
}

function isStale(part: Part, root: string): boolean {
  const out = path.join(root, part.output);
  if (!fs.existsSync(out)) return true;
  const builtAt = fs.statSync(out).mtimeMs;
  return part.inputs.some((p) => newest(path.join(root, p)) > builtAt);
}

function webBuildIsStale(root = ROOT): boolean {
  return isStale(PARTS[1], root) || !fs.existsSync(path.join(root, 'web/dist/index.html'));
}

/** Builds each stale part; `env` lets a caller force NODE_ENV=production for vite. */
export function buildIfStale(root = ROOT, only?: 'service' | 'console'): string[] {
  const built: string[] = [];
  for (const part of PARTS) {
    if (only && part.name !== only) continue;
    if (part.name === 'console' ? !webBuildIsStale(root) : !isStale(part, root)) continue;
    process.stderr.write(`${part.name}: sources are newer than the build, building (${part.command.join(' ')})…\n`);
    // NODE_ENV set explicitly: under vitest it is `test`, and vite would then bundle React's
    // development build (three times the size, several times slower to render).
    execFileSync(path.join(root, 'node_modules/.bin', part.command[0]), part.command.slice(1), {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    built.push(part.name);
  }
  return built;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  buildIfStale();
}
