/**
 * Before any journey: Debian's Chromium is there (installed when missing and we are root), the
 * console's build in web/dist is at least as new as its sources (rebuilt otherwise, since the
 * service serves web/dist), and the service can run from source through tsx.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildIfStale } from '../../../scripts/build-if-stale.mjs';
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

/** The console served by the journeys is the current one: rebuilt when web/src is newer. */
export function ensureWebBuild(root = ROOT): void {
  buildIfStale(root, 'console');
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
