/**
 * Before any journey: Debian's Chromium is there (installed when missing and we are root), the
 * console's build in web/dist is at least as new as its sources (rebuilt otherwise, since the
 * service serves web/dist), and the service can run from source through tsx.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM } from './browser.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (sudo apt-get install -y chromium) and run the e2e tests again`);
  }
  process.stderr.write('e2e: installing Debian chromium (apt-get install -y chromium)…\n');
  const apt = (...args: string[]) => execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    apt('install', '-y', 'chromium');
  } catch {
    // Package lists that were never fetched (a fresh container) or are stale: fetch them once.
    apt('update');
    apt('install', '-y', 'chromium');
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
}

/** The newest modification time of the files under `p` (a file or a directory). */
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

/** What the build reads (the server's schemas reach it as types only, which never change its output). */
const WEB_INPUTS = ['web/src', 'web/index.html', 'web/public', 'web/vite.config.ts'];

export function webBuildIsStale(root = ROOT): boolean {
  const built = path.join(root, 'web/dist/.vite/manifest.json');
  if (!fs.existsSync(built) || !fs.existsSync(path.join(root, 'web/dist/index.html'))) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return WEB_INPUTS.some((p) => newest(path.join(root, p)) > builtAt);
}

export function ensureWebBuild(root = ROOT): void {
  if (!webBuildIsStale(root)) return;
  process.stderr.write('web/dist is missing or older than web/src: building it (vite build)…\n');
  // NODE_ENV set explicitly: vitest runs this with NODE_ENV=test, and vite would then bundle React's
  // development build (three times the size, several times slower to render).
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

function ensureTsx(): void {
  const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
  if (!fs.existsSync(tsx)) throw new Error('tsx is missing (node_modules/.bin/tsx): run npm ci; the e2e service runs src/server.ts from source');
  execFileSync(tsx, ['--eval', 'process.exit(0)'], { cwd: ROOT, stdio: 'ignore', timeout: 60_000 });
}

export default async function setup(): Promise<void> {
  ensureChromium();
  ensureTsx();
  ensureWebBuild();
}
