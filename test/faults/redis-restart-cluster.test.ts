/**
 * Redis stopped and started again (empty: no persistence) under WORKERS=2 on PostgreSQL, while a
 * push runs, settings change, a schedule is due, thresholds are crossed and an agent falls silent.
 * What an operator checks afterwards: every request was answered (health saying the cache is
 * down, no 5xx), the push cancelled during the outage stopped, the schedule ran once, a settings
 * change made during the outage is seen by both workers and the primary, and each alert was
 * notified exactly once (counted at a loopback stand-in for the bot API).
 *
 * The two tests are one story in order: the second checks what the outage of the first left.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sendJson, startFakeServer, type FakeServer } from '../platform/settings/fake-http.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { freePort, ProcessScope, waitHealthy } from '../helpers/service-process.js';
import { createPostgresDatabase, type TempDatabase } from '../helpers/targets.js';
import { bigSource, remoteDir, rmrf, stagingDir, until } from '../modules/push/push-helpers.js';

const PG = Boolean(process.env.TEST_DATABASE_URL);
if (!PG) console.warn('Redis restart cluster test skipped: WORKERS=2 needs TEST_DATABASE_URL (PostgreSQL), as .ci/run sets');

const PASSWORD = 'redis-restart-pw-1';
const BOT = '555:redis-restart-bot';

interface Answer {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers of many endpoints, checked by matchers
  json: any;
}

describe.runIf(PG)('Redis restarted under WORKERS=2', () => {
  const scope = new ProcessScope();
  const sshd = inject('sshd');
  const tag = randomUUID().slice(0, 6);
  const names = { hot: `rr-hot-${tag}`, late: `rr-late-${tag}`, quiet: `rr-quiet-${tag}` };
  let pgdb: TempDatabase;
  let redis: RedisServer;
  let bot: FakeServer;
  let port: number;
  let token = '';
  const agents: Record<string, string> = {};
  const cleanup: string[] = [];
  /** Every answer seen while Redis was down. */
  const duringOutage: Array<{ what: string } & Answer> = [];
  let cancelBatch = '';
  let scheduleId = 0;
  /** What the two busy agents report every second (the quiet one says nothing after the start). */
  const cpu = { hot: 10, late: 10 };
  let outage = false;
  let pulse: NodeJS.Timeout | undefined;

  /** One request on a connection of its own: the cluster hands each new connection to the next worker in turn. */
  function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1', port, method, path: url, agent: false,
          headers: {
            connection: 'close',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(payload ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => {
            let json: unknown = null;
            try {
              json = JSON.parse(text);
            } catch {
              // not JSON
            }
            resolve({ status: res.statusCode ?? 0, text, json });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }
  const heartbeat = (name: string, cpu: number) =>
    call('POST', '/api/agent/heartbeat', { cpu, mem: 20, disk: 30, ts: Math.floor(Date.now() / 1000) }, { authorization: `Bearer ${agents[name]}` });
  const messages = () =>
    bot.requests.filter((r) => r.url === `/bot${BOT}/sendMessage`).map((r) => String((JSON.parse(r.body) as { text: string }).text));
  /** Notifications about one server: alerts (not recoveries) and recoveries. */
  const about = (name: string) => {
    const mine = messages().filter((m) => m.includes(`<b>${name}</b>`));
    const recovered = mine.filter((m) => m.startsWith('🟢'));
    return { alerts: mine.length - recovered.length, recoveries: recovered.length, all: mine };
  };
  const put = (key: string, value: string) => call('PUT', `/api/settings/${key}`, { value });

  beforeAll(async () => {
    [pgdb, redis, bot] = await Promise.all([
      createPostgresDatabase(),
      startRedisServer(),
      startFakeServer((req, res) => sendJson(res, 200, { ok: true, result: req.url.endsWith('/sendMessage') ? { message_id: 1 } : true })),
    ]);
    port = await freePort();
    const svc = scope.start({
      DATA_DIR: scope.tempDir(),
      PORT: String(port),
      WORKERS: '2',
      DATABASE_URL: pgdb.url,
      CACHE_URL: redis.url,
      CACHE_PREFIX: 'rr:',
      ADMIN_PASSWORD: PASSWORD,
      MESSENGER_API_BASE: bot.url,
      FLEET_ALLOW_PRIVATE_FETCH: '1',
    });
    await waitHealthy(port, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${svc.err().slice(-2000)}`);
    });
    token = (await call('POST', '/api/auth/login', { username: 'admin', password: PASSWORD })).json.access_token;
    expect(token).toBeTruthy();
    for (const [k, v] of Object.entries({ messenger_bot_token: BOT, messenger_chat_id: '-100', heartbeat_timeout: '600' })) {
      expect((await put(k, v)).status).toBe(200);
    }
    for (const name of Object.values(names)) {
      const s = await call('POST', '/api/servers', { name, host: '10.20.30.40' });
      expect(s.status).toBe(201);
      agents[name] = (await call('POST', `/api/servers/${s.json.id}/agent-token`)).json.agent_token;
      expect((await heartbeat(name, 10)).status).toBeLessThan(300);
    }
  }, 90_000);

  afterAll(async () => {
    clearInterval(pulse);
    scope.cleanup();
    rmrf(...cleanup);
    await Promise.all([redis?.stop(), bot?.close()]);
    await pgdb?.drop();
  });

  it('while Redis is down: serves (health says cache error, no 5xx), takes settings, cancels a running push, runs a due schedule', async () => {
    // Agents report every second throughout, answered by either worker. The hot one breaches
    // before the outage (notified now) and must not be notified again once Redis comes back empty.
    cpu.hot = 95;
    pulse = setInterval(() => {
      for (const name of ['hot', 'late'] as const) {
        void heartbeat(names[name], cpu[name]).then(
          (a) => outage && duringOutage.push({ what: `heartbeat ${name}`, ...a }),
          () => {},
        );
      }
    }, 1000);
    await until(async () => about(names.hot).alerts === 1, 15_000, 100);

    // A push to two servers, one at a time: the first is busy with a large file when Redis goes.
    const src = bigSource(512);
    const dests = [remoteDir(sshd, 'rr-a'), remoteDir(sshd, 'rr-b')];
    cleanup.push(src, ...dests);
    const ids: number[] = [];
    for (const [i, dest] of dests.entries()) {
      const s = await call('POST', '/api/servers', {
        name: `rr-push-${i}-${tag}`, host: sshd.host, port: sshd.port, username: sshd.username, private_key: sshd.privateKey, target_path: dest,
      });
      expect(s.status).toBe(201);
      ids.push(s.json.id);
    }
    cancelBatch = `rr_${tag}`;
    const started = await call('POST', '/api/sync/files', { server_ids: ids, source_path: src, async: true, batch_id: cancelBatch, concurrency: 1, batch_size: 1 });
    expect(started.status).toBe(202);
    await until(async () => (await call('GET', `/api/sync/batches/${cancelBatch}`)).json?.results?.[0]?.status === 'running', 20_000, 100);

    await redis.stop();
    outage = true;
    const record = async (what: string, p: Promise<Answer>) => {
      const a = await p;
      duringOutage.push({ what, ...a });
      return a;
    };

    const health = await record('health', call('GET', '/health'));
    expect(health.json).toMatchObject({ status: 'ok', db: 'ok', cache: 'error' });
    expect((await record('cancel', call('POST', '/api/sync/cancel', { batch_id: cancelBatch }))).status).toBe(200);

    // Changed while no worker can announce it: the new threshold makes 70 % a breach, the short
    // timeout makes the quiet agent offline; both must reach every process once Redis is back.
    expect((await record('put threshold', put('cpu_alert_threshold', '60'))).status).toBe(200);
    expect((await record('put timeout', put('heartbeat_timeout', '10'))).status).toBe(200);

    const staged = stagingDir({ 'once.txt': 'once\n' });
    const dest = remoteDir(sshd, 'rr-sched');
    cleanup.push(staged, dest);
    const sched = await record('schedule', call('POST', '/api/schedules', {
      name: `rr-once-${tag}`, source_path: staged, target_path: dest, server_ids: [ids[1]], fire_at: '2000-01-01T00:00:00Z',
    }));
    expect(sched.status).toBe(201);
    scheduleId = sched.json.id;

    // Crosses the new threshold (60) but not the old one (90).
    cpu.late = 70;
    for (let i = 0; i < 4; i++) {
      await record('login', call('POST', '/api/auth/login', { username: 'admin', password: PASSWORD }));
      for (const url of ['/api/servers', '/api/settings', '/api/alert-history', '/api/alert-history/active', '/api/alert-history/stats', '/api/sync/batches', '/api/retries', `/api/schedules/${scheduleId}/runs`]) {
        await record(`GET ${url}`, call('GET', url));
      }
    }
    // Cancelled during the outage: the running server finishes, the next one never starts.
    const batch = await until(async () => {
      const b = (await record('batch', call('GET', `/api/sync/batches/${cancelBatch}`))).json;
      return b?.status !== 'running' && b;
    }, 40_000, 250);
    expect(batch.status).toBe('cancelled');
    expect(batch.results.map((r: { status: string }) => r.status)).toEqual(['success', 'skipped']);
    // The schedule due meanwhile ran, on the database alone.
    const runs = await until(async () => {
      const r = (await record('runs', call('GET', `/api/schedules/${scheduleId}/runs`))).json;
      return r?.items?.[0]?.status && r.items[0].status !== 'running' && r;
    }, 30_000, 250);
    expect(runs.items).toHaveLength(1);
    expect(runs.items[0]).toMatchObject({ status: 'completed', succeeded: 1 });

    const bad = duringOutage.filter((a) => a.status >= 500 || /\n\s+at /.test(a.text));
    expect(bad.map((a) => `${a.what}: ${a.status} ${a.text.slice(0, 200)}`)).toEqual([]);
    // No threshold was evaluated without the active set: nothing notified for the late breach yet.
    expect(about(names.late).alerts).toBe(0);
  }, 90_000);

  it('after Redis is back empty: settings converge everywhere, each alert is notified exactly once, the schedule ran once', async () => {
    await redis.start();
    outage = false;
    await until(async () => (await call('GET', '/health')).json?.cache === 'ok', 15_000, 100);

    // Both workers (connections alternate between them) see the values written during the outage.
    await until(async () => {
      const seen = await Promise.all([0, 1, 2, 3, 4, 5].map(() => call('GET', '/api/settings/cpu_alert_threshold')));
      return seen.every((s) => s.json?.value === '60');
    }, 15_000, 200);

    // The workers saw the threshold of 60: the late breach is notified (once); the primary saw the
    // 10 s timeout: the quiet agent goes offline, notified once.
    await until(async () => about(names.quiet).alerts >= 1 && about(names.late).alerts >= 1, 45_000, 200);
    cpu.hot = 10;
    cpu.late = 10;
    expect((await heartbeat(names.quiet, 10)).status).toBeLessThan(300);
    await until(async () => Object.values(names).every((n) => about(n).recoveries === 1), 15_000, 100);

    for (const name of Object.values(names)) {
      expect({ name, ...about(name) }).toMatchObject({ name, alerts: 1, recoveries: 1 });
    }
    const runs = (await call('GET', `/api/schedules/${scheduleId}/runs`)).json;
    expect(runs.items).toHaveLength(1);
  }, 90_000);
});
