/**
 * The guarded request against loopback servers: the private-target rule (refused unless allowed),
 * http(s) only, the answer cap, the deadline, redirects refused, and URLs never in error texts.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedRequestError, createGuardedRequest, refusedAddress } from '../../../src/adapters/http/guarded-request.js';

let server: Server;
let base = '';
const hung = new Set<import('node:net').Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/big')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      // Streamed without Content-Length, so the cap must hold while reading.
      for (let i = 0; i < 200; i++) res.write('x'.repeat(1024));
      res.end();
    } else if (req.url?.startsWith('/hang')) {
      hung.add(req.socket);
    } else if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    } else {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json', 'x-echo': req.headers['x-custom'] ?? '' });
        res.end(JSON.stringify({ method: req.method, body, host: req.headers.host }));
      });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const s of hung) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

const resolve = async (host: string) => {
  if (host === 'loop.example.test') return ['127.0.0.1'];
  if (host === 'ten.example.test') return ['10.1.2.3'];
  throw new Error('ENOTFOUND');
};

async function failure(p: Promise<unknown>): Promise<GuardedRequestError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(GuardedRequestError);
    return err as GuardedRequestError;
  }
  throw new Error('expected a rejection');
}

describe('guarded request', () => {
  it('sends method, headers and body and returns status, headers and text', async () => {
    const request = createGuardedRequest({ resolve, allowPrivate: true });
    const res = await request(`${base}/echo`, { method: 'PUT', headers: { 'x-custom': 'v1' }, body: 'hello' });
    expect(res.status).toBe(201);
    expect(res.headers['x-echo']).toBe('v1');
    expect(JSON.parse(res.text)).toMatchObject({ method: 'PUT', body: 'hello' });
  });

  it('connects to the checked address with the URL host name as Host', async () => {
    const request = createGuardedRequest({ resolve, allowPrivate: true });
    const port = new URL(base).port;
    const res = await request(`http://loop.example.test:${port}/echo`);
    expect(JSON.parse(res.text).host).toBe(`loop.example.test:${port}`);
  });

  it('refuses loopback and private targets unless private targets are allowed', async () => {
    const strict = createGuardedRequest({ resolve, allowPrivate: false });
    const err = await failure(strict(`${base}/echo?access_token=SECRET-TOKEN`));
    expect(err.kind).toBe('refused');
    expect(err.retryable).toBe(false);
    expect(err.message).not.toContain('SECRET-TOKEN');
    expect(err.message).not.toContain('127.0.0.1');
    expect((await failure(strict('http://ten.example.test/x'))).kind).toBe('refused');
    expect((await failure(strict('http://[::1]/x'))).kind).toBe('refused');
    expect((await failure(strict('http://169.254.169.254/latest/meta-data'))).kind).toBe('refused');
  });

  it('never admits unspecified or multicast targets, even with private targets allowed', () => {
    expect(refusedAddress('0.0.0.0', true)).toBe('unspecified');
    expect(refusedAddress('224.0.0.1', true)).toBe('multicast');
    expect(refusedAddress('10.0.0.1', true)).toBeNull();
    expect(refusedAddress('10.0.0.1', false)).toBe('private');
    expect(refusedAddress('93.184.216.34', false)).toBeNull();
  });

  it('refuses schemes other than http(s), URLs with credentials and unresolvable hosts', async () => {
    const request = createGuardedRequest({ resolve, allowPrivate: true });
    expect((await failure(request('file:///etc/passwd'))).kind).toBe('refused');
    expect((await failure(request('ftp://127.0.0.1/x'))).kind).toBe('refused');
    expect((await failure(request('not a url'))).kind).toBe('refused');
    expect((await failure(request(`http://user:pw@127.0.0.1:${new URL(base).port}/`))).kind).toBe('refused');
    const unresolved = await failure(request('http://nowhere.example.test/key/SECRET'));
    expect(unresolved.kind).toBe('resolve');
    expect(unresolved.message).not.toContain('SECRET');
  });

  it('caps a huge answer', async () => {
    const request = createGuardedRequest({ resolve, allowPrivate: true });
    const err = await failure(request(`${base}/big`));
    expect(err.kind).toBe('too_large');
    expect(err.message).toContain('65536');
  });

  it('times out on a server that never answers', async () => {
    const request = createGuardedRequest({ resolve, allowPrivate: true, timeoutMs: 300 });
    const started = Date.now();
    const err = await failure(request(`${base}/hang/SECRET`));
    expect(err.kind).toBe('timeout');
    expect(err.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('treats a redirect as a failure without following it', async () => {
    const request = createGuardedRequest({ resolve, allowPrivate: true });
    const err = await failure(request(`${base}/redirect`));
    expect(err.kind).toBe('redirect');
    expect(err.message).toContain('302');
  });

  it('reports a refused connection as retryable without the URL', async () => {
    const request = createGuardedRequest({ resolve, allowPrivate: true });
    const err = await failure(request('http://127.0.0.1:1/path/SECRET'));
    expect(err.kind).toBe('network');
    expect(err.retryable).toBe(true);
    expect(err.message).not.toContain('SECRET');
  });
});
