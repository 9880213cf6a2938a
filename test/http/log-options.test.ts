/** A token in a query string (the live socket's `?token=`) never reaches the log. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggableUrl } from '../../src/http/log-options.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { connectWs } from '../helpers/ws.js';
import { captureLogs } from '../modules/presets/log-capture.js';

describe('request logging', () => {
  const logs = captureLogs();
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await makeTestApp({ logger: { level: 'debug', stream: logs.stream } });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => t?.close());

  it.each([
    ['/ws/alerts?token=abc', '/ws/alerts'],
    ['/api/servers', '/api/servers'],
    ['/api/servers/search?q=x&token=y', '/api/servers/search'],
    ['/?', '/'],
  ])('%s is logged as %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });

  it('logs the live socket and API requests without their query strings', async () => {
    const token = await t.token();
    const ws = connectWs(`${base.replace('http', 'ws')}/ws/alerts?token=${token}`);
    await ws.opened;
    ws.close();
    await ws.closed;
    await fetch(`${base}/api/servers/search?q=needle-in-query&token=${token}`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((r) => setTimeout(r, 50));
    const text = logs.text();
    expect(text).toContain('"url":"/ws/alerts"');
    expect(text).toContain('"url":"/api/servers/search"');
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.split('.')[2]);
    expect(text).not.toContain('needle-in-query');
  });
});
