/**
 * The web-console scenario's peers, served from memory by node:http: a plain-DOM page over a static
 * JSON of the servers, and the console build itself over captured API answers.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const PEER_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Servers</title><script src="/peer.js" defer></script></head>
<body><h1>Servers</h1><p id="count"></p>
<table aria-label="Servers"><thead><tr><th>Name</th><th>Host</th><th>Status</th><th>Tags</th><th>Last heartbeat</th></tr></thead><tbody></tbody></table>
</body></html>`;

// The same first page the console shows (sorted by name, 50 rows), built with plain DOM calls.
const PEER_JS = `
fetch('/servers.json').then((r) => r.json()).then((servers) => {
  servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const body = document.querySelector('tbody');
  for (const s of servers.slice(0, 50)) {
    const tr = document.createElement('tr');
    for (const v of [s.name, s.host, s.status, (s.tags || []).join(', '), s.last_heartbeat_at || '']) {
      const td = document.createElement('td');
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  document.getElementById('count').textContent = servers.length.toLocaleString('en-US') + ' servers';
});`;

/** The peer: three static files from memory on a plain node:http server, uncompressed like the service. */
export async function startPeer(json: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const files: Record<string, [string, Buffer]> = {
    '/peer.html': ['text/html; charset=utf-8', Buffer.from(PEER_HTML)],
    '/peer.js': ['text/javascript; charset=utf-8', Buffer.from(PEER_JS)],
    '/servers.json': ['application/json', json],
  };
  const server = http.createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f[0], 'content-length': f[1].length, 'cache-control': 'no-cache' }).end(f[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png',
};

/**
 * The primary peer: the same console build rendering the same table from static JSON files — the
 * answers the page asks for, captured once from the service — served from memory by node:http.
 * What differs from the real run is only the service answering live for 10,000 servers.
 */
export async function startStaticConsole(api: Map<string, Buffer>): Promise<{ url: string; close(): Promise<void> }> {
  const dist = path.join(ROOT, 'web/dist');
  const files = new Map<string, Buffer>();
  for (const e of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && !/\.(gz|br|map)$/.test(e.name)) files.set(`/${path.relative(dist, path.join(e.parentPath, e.name))}`, fs.readFileSync(path.join(e.parentPath, e.name)));
  }
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const answer = api.get(url);
    if (answer) return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer);
    if (url.startsWith('/api/') || url.startsWith('/ws/')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"not captured"}');
    const name = url.split('?')[0];
    const body = files.get(name) ?? (files.get('/index.html') as Buffer);
    const type = TYPES[path.extname(files.has(name) ? name : '/index.html')] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
