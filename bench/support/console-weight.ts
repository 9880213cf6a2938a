/**
 * The console build's weight as the manifest tells it (web/dist/.vite/manifest.json): the gzipped
 * JavaScript a first visit to a route loads, and whether every router page is a lazy chunk of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { round } from '../lib.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const KB = 1000;
export type ConsoleRoute = 'login' | 'push';

/** The lazy chunks a route needs beyond the entry (see web/src/app/router.tsx). */
const ROUTE_CHUNKS: Record<ConsoleRoute, string[]> = {
  login: ['src/pages/login/LoginPage.tsx'],
  push: ['src/app/Shell.tsx', 'src/pages/push/PushPage.tsx'],
};

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export interface Weight {
  files: string[];
  raw: number;
  gzip: number;
}

export const gzipSize = (b: Buffer) => zlib.gzipSync(b).length;

export function manifestWeight(route: ConsoleRoute): Weight {
  const dist = path.join(ROOT, 'web/dist');
  const m = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.keys(m).find((k) => m[k].isEntry);
  if (!entry) throw new Error('the manifest has no entry');
  const files = new Set<string>();
  const add = (key: string) => {
    const c = m[key];
    if (!c) throw new Error(`the manifest has no chunk ${key}`);
    if (files.has(c.file)) return;
    files.add(c.file);
    for (const i of c.imports ?? []) add(i);
  };
  add(entry);
  for (const k of ROUTE_CHUNKS[route]) add(k);
  const js = [...files].filter((f) => f.endsWith('.js')).sort();
  let raw = 0;
  let gzip = 0;
  for (const f of js) {
    const b = fs.readFileSync(path.join(dist, f));
    raw += b.length;
    gzip += gzipSize(b);
  }
  return { files: js, raw, gzip };
}

/** Every page module the router imports lazily (read from web/src/app/router.tsx). */
function routerPages(): string[] {
  const router = fs.readFileSync(path.join(ROOT, 'web/src/app/router.tsx'), 'utf8');
  // Page modules only (a route's data loader, like servers-query, is not a page).
  return [...router.matchAll(/import\('\.\.\/pages\/([^']+Page)'\)/g)].map((m) => `src/pages/${m[1]}.tsx`);
}

/**
 * Each router page: whether the build made it a lazy chunk of its own, and its gzipped
 * JavaScript beyond what the entry and the signed-in shell already loaded.
 */
export function pageChunks(): { pages: Record<string, { own_chunk: boolean; extra_gzip_kb: number }>; pass: boolean } {
  const dist = path.join(ROOT, 'web/dist');
  const m = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk & { isDynamicEntry?: boolean }>;
  const closure = (keys: string[]): Set<string> => {
    const files = new Set<string>();
    const add = (key: string) => {
      const c = m[key];
      if (!c || files.has(c.file)) return;
      files.add(c.file);
      for (const i of c.imports ?? []) add(i);
    };
    for (const k of keys) add(k);
    return files;
  };
  const entry = Object.keys(m).find((k) => m[k].isEntry) ?? '';
  const shell = closure([entry, 'src/app/Shell.tsx']);
  const pages: Record<string, { own_chunk: boolean; extra_gzip_kb: number }> = {};
  let pass = true;
  for (const page of routerPages()) {
    const own = Boolean(m[page]?.isDynamicEntry) && !shell.has(m[page]?.file ?? '');
    pass &&= own;
    const extra = [...closure([page])].filter((f) => f.endsWith('.js') && !shell.has(f));
    const gzip = extra.reduce((n, f) => n + gzipSize(fs.readFileSync(path.join(dist, f))), 0);
    pages[page.replace(/^src\/pages\//, '')] = { own_chunk: own, extra_gzip_kb: round(gzip / KB, 1) };
  }
  return { pages, pass };
}
