/**
 * A scriptable HTTP server on 127.0.0.1 standing in for outbound services in tests (bot API,
 * wallpaper archive, subscription hosts). Tests never reach any other address.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type FakeHandler = (req: RecordedRequest, res: http.ServerResponse) => unknown;

export interface FakeServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  handler: FakeHandler;
  close(): Promise<void>;
}

export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const fake: FakeServer = {
    url: '',
    port: 0,
    requests: [],
    handler,
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      fake.requests.push(rec);
      Promise.resolve(fake.handler(rec, res)).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  fake.port = port;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A local address nothing listens on, for "upstream unreachable" cases. */
export const CLOSED_URL = 'http://127.0.0.1:9';

/** Env for test apps so no code path can reach a real outbound service. */
export function offlineEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return { MESSENGER_API_BASE: CLOSED_URL, WALLPAPER_SOURCE_URL: `${CLOSED_URL}/archive`, ...overrides };
}
