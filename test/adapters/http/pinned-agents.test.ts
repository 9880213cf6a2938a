/**
 * Channel requests keep their connection: two sends to one address ride one TCP connection, the
 * target is still checked on each (a refused target is refused even with a warm agent), and a
 * failed request drops the agent so the next one connects afresh.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedRequest } from '../../../src/adapters/http/guarded-request.js';
import { PinnedAgents } from '../../../src/adapters/http/pinned-agents.js';

describe('pinned keep-alive agents', () => {
  let server: http.Server;
  let url: string;
  let connections = 0;
  const agents = new PinnedAgents({ connectTimeoutMs: 2_000 });
  const resolve = async () => ['127.0.0.1'];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/drop') return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://hooks.example.test:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await agents.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends twice over one connection, checks the target every time, and reconnects after a failure', async () => {
    const request = createGuardedRequest({ resolve, allowPrivate: true, agents });
    // Notifications are sent one after another with gaps between, as here.
    const pause = () => new Promise((r) => setTimeout(r, 20));
    for (const path of ['a', 'b', 'c']) {
      expect((await request(`${url}/${path}`, { method: 'POST', body: 'x' })).status).toBe(200);
      await pause();
    }
    expect(connections).toBe(1);

    const strict = createGuardedRequest({ resolve, allowPrivate: false, agents });
    await expect(strict(`${url}/c`, { method: 'POST', body: 'z' })).rejects.toThrow(/non-public/);
    expect(connections).toBe(1);

    await expect(request(`${url}/drop`, { method: 'POST', body: 'z' })).rejects.toThrow();
    await pause();
    expect((await request(`${url}/d`, { method: 'POST', body: 'x' })).status).toBe(200);
    expect(connections).toBe(2);
  });
});
