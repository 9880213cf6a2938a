/**
 * Serves the web console (the Vite build in web/dist) at `/`. It answers from the not-found
 * handler, so no API route, its authentication or its rate limit is affected: a GET that no route
 * took gets the built file at that path, or index.html when a browser asks for a page (the
 * console's own router then shows it). Paths under /api, /ws, /docs, /health and /app are never
 * answered here, so an unknown API path still gets the JSON 404. Hashed assets are cached for a
 * year; everything else is revalidated, so a new release shows up on the next load.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const RESERVED = ['/api', '/ws', '/docs', '/health', '/app'];

/** Answers the request and returns true, or returns false to let the JSON 404 answer. */
export type ConsoleFallback = (req: FastifyRequest, reply: FastifyReply) => boolean;

function listFiles(root: string): Set<string> {
  const files = new Set<string>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.add(path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  }
  return files;
}

function isReserved(pathname: string): boolean {
  return RESERVED.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** Registers the file server and returns the not-found fallback; null when `dir` is not given. */
export async function installConsole(app: FastifyInstance, dir: string | null): Promise<ConsoleFallback | null> {
  if (!dir) return null;
  const built = fs.existsSync(path.join(dir, 'index.html'));
  // Files are listed once at start: a request can only ever name a file the build produced.
  const files = built ? listFiles(dir) : new Set<string>();
  // The build writes .br and .gz copies of its text files: sent as the browser accepts them.
  if (built) await app.register(fastifyStatic, { root: dir, serve: false, cacheControl: false, etag: true, lastModified: true, preCompressed: true });

  return (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    let pathname: string;
    try {
      pathname = decodeURIComponent(req.url.split('?')[0]);
    } catch {
      return false;
    }
    if (isReserved(pathname)) return false;
    const wantsPage = (req.headers.accept ?? '').includes('text/html');
    if (!built) {
      if (!wantsPage && pathname !== '/') return false;
      reply.code(503).send({ detail: 'The web console is not built: run `npm run build`', code: 'console_not_built' });
      return true;
    }
    const file = pathname.slice(1);
    if (files.has(file) && file !== 'index.html') {
      const immutable = file.startsWith('assets/');
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      void reply.sendFile(file);
      return true;
    }
    if (!wantsPage && pathname !== '/') return false;
    reply.header('cache-control', 'no-cache');
    void reply.sendFile('index.html');
    return true;
  };
}
