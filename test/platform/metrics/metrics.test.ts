import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { heartbeat, monitoredServer } from '../../modules/agent/agent-helpers.js';
import { addServer, caller, remoteDir, rmrf, stagingDir } from '../../modules/push/push-helpers.js';

const shared = inject('sshd');

/** The value of one series in the Prometheus text, or undefined when it is not there. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-z_:]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '').split(',').filter(Boolean);
    if (want.every((w) => have.includes(w))) return Number(m[3]);
  }
  return undefined;
}

describe.each(dbKinds())('GET /metrics on %s', (db) => {
  let t: TestApp;
  const call = caller(() => t);
  const cleanup: string[] = [];
  const scrape = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ url: '/metrics', headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
    rmrf(...cleanup);
  });

  it('answers an administrator and the API key, nobody else', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/metrics', headers: { 'x-api-key': 'wrong' } })).statusCode).toBe(401);
    const admin = await t.auth();
    const key = (await t.app.inject({ method: 'POST', url: '/api/settings/api-key/reveal', headers: admin })).json().value;
    await scrape({ 'x-api-key': key });
    await scrape(admin);
  });

  it('counts requests by route pattern and status, never by raw URL', async () => {
    const admin = await t.auth();
    await t.app.inject({ url: '/health' });
    await t.app.inject({ url: '/api/servers/987654', headers: admin });
    await t.app.inject({ url: '/api/no-such-route', headers: admin });
    const text = await scrape(admin);
    expect(series(text, 'fleet_http_requests_total', { method: 'GET', route: '/health', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(series(text, 'fleet_http_requests_total', { route: '/api/servers/:id', status: '404' })).toBe(1);
    expect(series(text, 'fleet_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('987654');
    expect(text).not.toContain('no-such-route');
    expect(series(text, 'fleet_http_request_duration_seconds_count', { method: 'GET', route: '/health' })).toBeGreaterThanOrEqual(1);
    expect(series(text, 'fleet_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    // Counts keep adding up from scrape to scrape (a scrape folds what came since, it resets nothing).
    await t.app.inject({ url: '/api/servers/987654', headers: admin });
    await t.app.inject({ url: '/api/servers/987654', headers: admin });
    const again = await scrape(admin);
    expect(series(again, 'fleet_http_requests_total', { route: '/api/servers/:id', status: '404' })).toBe(3);
    expect(series(again, 'fleet_http_request_duration_seconds_count', { method: 'GET', route: '/api/servers/:id' })).toBe(3);
  });

  it('counts a push per server outcome with rsync bytes, heartbeats, and reads gauges at scrape time', async () => {
    const src = stagingDir({ 'a.txt': 'alpha\n'.repeat(1000) });
    const dest = remoteDir(shared, 'metrics');
    cleanup.push(src, dest);
    const id = await addServer(call, shared, 'metrics', { target_path: dest });
    const res = await call('POST', '/api/sync/files', { server_ids: [id, 999_999], source_path: src, batch_id: `m_${randomUUID().slice(0, 8)}` });
    expect(res.json()).toMatchObject({ succeeded: 1, failed: 1 });
    const { token } = await monitoredServer(t, 'metrics-agent');
    expect((await heartbeat(t, token, { cpu: 10 })).statusCode).toBe(200);

    const text = await scrape(await t.auth());
    expect(series(text, 'fleet_push_servers_total', { outcome: 'success' })).toBe(1);
    expect(series(text, 'fleet_push_servers_total', { outcome: 'failed' })).toBe(1); // the unknown server
    expect(series(text, 'fleet_push_batches_total', { status: 'partial' })).toBe(1);
    expect(series(text, 'fleet_rsync_bytes_total')).toBe(6000);
    expect(series(text, 'fleet_heartbeats_total')).toBe(1);
    expect(series(text, 'fleet_open_alerts')).toBe(0);
    expect(series(text, 'fleet_retry_jobs', { status: 'pending' })).toBe(0);
    expect(series(text, 'fleet_ssh_pool', { kind: 'connections' })).toBeGreaterThanOrEqual(0);
    expect(series(text, 'fleet_ssh_connects')).toBeGreaterThanOrEqual(0);
  });
});
