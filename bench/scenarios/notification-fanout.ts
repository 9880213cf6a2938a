/**
 * One alert fanned out to 10 webhook-like channels on loopback fakes. Figure: time from sending
 * the heartbeat that crosses the CPU threshold to the 10th channel receiving the alert, p99 over
 * ROUNDS rounds (a new server each round, so no dedup), against a bare `fetch` to the same 10
 * fakes in parallel. Goal: ratio <= 2. Second figure: heartbeat-ingest p99 (one server in ten
 * alerting or recovering with each heartbeat) while the 10 channels answer only after 5 s, against the same load with no
 * channel: goal within ±10 %. The app runs in-process; the 10 channels are real webhook channels
 * created through the API (private targets allowed for the loopback fakes), delivered through
 * the outbox by the service's own webhook adapter.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { median, percentile, round, runIfMain, type Scenario } from '../lib.js';
import { api, startBenchApp, type BenchApp } from '../support/app.js';

const CHANNELS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
/**
 * Per ingest run: enough that every run spans several of the service's 1 s flushes of readings
 * and heartbeat times (a run of under a second spans one or none, and its p99 moved by half
 * with that alone, channels or not).
 */
const INGEST_HEARTBEATS = Number(process.env.BENCH_HEARTBEATS ?? 4000);
const INGEST_CONCURRENCY = 10;
/** One server in ALERT_EVERY raises an alert or a recovery with each heartbeat (1: every heartbeat). */
const ALERT_EVERY = Number(process.env.BENCH_ALERT_EVERY ?? 10);
const INGEST_PAIRS = Number(process.env.BENCH_INGEST_PAIRS ?? 5);

interface Fake {
  url: string;
  received: (title: string) => void;
  close(): Promise<void>;
}

/** A loopback endpoint answering 200 after `delayMs`, reporting each body's title as it arrives. */
async function fake(delayMs: number, onTitle: (title: string) => void): Promise<Fake> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        onTitle((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title?: string }).title ?? '');
      } catch {
        /* the baseline posts a bare body */
      }
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), delayMs).unref();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: onTitle,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** The 10 fakes as webhook channels subscribed to CPU alerts and recoveries, through the API. */
async function addChannels(app: BenchApp, urls: string[]): Promise<void> {
  await api(app, 'PUT', '/api/settings/notify_allow_private_targets', { value: 'true' });
  for (const [i, url] of urls.entries()) {
    await api(app, 'POST', '/api/notification-channels', {
      type: 'webhook', name: `hook-${i + 1}`, config: { url, method: 'POST', body_format: 'json' }, events: ['alert_cpu', 'recovery_cpu'],
    });
  }
}

async function monitoredServers(app: BenchApp, n: number, prefix: string): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const { id } = (await api(app, 'POST', '/api/servers', { name: `${prefix}-${i}`, host: `10.9.${Math.floor(i / 250)}.${(i % 250) + 1}` })) as { id: number };
    tokens.push(((await api(app, 'POST', `/api/servers/${id}/agent-token`)) as { agent_token: string }).agent_token);
  }
  return tokens;
}

async function heartbeat(url: string, token: string, cpu: number): Promise<void> {
  const res = await request(`${url}/api/agent/heartbeat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ cpu, mem: 10, disk: 10, ts: Math.floor(Date.now() / 1000), load: 0.1, uptime: 100 }),
  });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`heartbeat: HTTP ${res.statusCode}`);
}

/** Fan-out latency per round: heartbeat sent → 10th channel has the alert. */
async function fanout(): Promise<{ ours: number[]; bare: number[] }> {
  const waiting = new Map<string, { left: number; done: () => void }>();
  const onTitle = (title: string) => {
    const w = waiting.get(title);
    if (w && --w.left === 0) w.done();
  };
  const fakes = await Promise.all(Array.from({ length: CHANNELS }, () => fake(0, onTitle)));
  // 45 alerts in a few seconds would hit the 20/min per-channel limit (by design: excess waits);
  // this figure is the delivery path itself, so the limit is raised here.
  const app = await startBenchApp({}, { notificationChannels: { delivery: { ratePerMinute: 100_000 } } });
  try {
    await addChannels(app, fakes.map((f) => f.url));
    await api(app, 'PUT', '/api/settings/cpu_alert_threshold', { value: '80' });
    const tokens = await monitoredServers(app, ROUNDS + 5, 'fan');
    const ours: number[] = [];
    for (let i = 0; i < tokens.length; i++) {
      await heartbeat(app.url, tokens[i], 10); // online, below the threshold
      const title = `🔴 CPU alert on fan-${i}`;
      const arrived = new Promise<void>((done) => waiting.set(title, { left: CHANNELS, done }));
      const started = performance.now();
      await heartbeat(app.url, tokens[i], 99);
      await arrived;
      if (i >= 5) ours.push(performance.now() - started); // the first rounds warm up
    }
    const bare: number[] = [];
    for (let i = 0; i < ROUNDS + 5; i++) {
      const started = performance.now();
      await Promise.all(fakes.map((f) => fetch(f.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' }).then((r) => r.arrayBuffer())));
      if (i >= 5) bare.push(performance.now() - started);
    }
    return { ours, bare };
  } finally {
    await app.close();
    await Promise.all(fakes.map((f) => f.close()));
  }
}

/** Heartbeat latencies under a load where every heartbeat opens or closes a CPU alert. */
async function ingest(slowChannels: boolean): Promise<number[]> {
  const fakes = slowChannels ? await Promise.all(Array.from({ length: CHANNELS }, () => fake(5_000, () => {}))) : [];
  const app = await startBenchApp();
  try {
    if (slowChannels) await addChannels(app, fakes.map((f) => f.url));
    await api(app, 'PUT', '/api/settings/cpu_alert_threshold', { value: '80' });
    const tokens = await monitoredServers(app, INGEST_CONCURRENCY * 20, slowChannels ? 'slow' : 'none');
    const times: number[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < INGEST_HEARTBEATS; i = next++) {
        const started = performance.now();
        // Servers 0, 10, 20… flip between 99 % and 5 % CPU (an alert or a recovery each time); the rest stay quiet.
        const s = i % tokens.length;
        const flips = s % ALERT_EVERY === 0;
        await heartbeat(app.url, tokens[s], flips && Math.floor(i / tokens.length) % 2 === 0 ? 99 : flips ? 5 : 20);
        times.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: INGEST_CONCURRENCY }, worker));
    return times.slice(200);
  } finally {
    await app.close();
    await Promise.all(fakes.map((f) => f.close()));
  }
}

export const scenario: Scenario = {
  name: 'notification-fanout',
  async run() {
    const { ours, bare } = await fanout();
    const p99 = percentile(ours, 99);
    const bareP99 = percentile(bare, 99);
    // Interleaved so drift of this shared machine hits both alike; the first pair warms up.
    const quietP99: number[] = [];
    const slowP99: number[] = [];
    for (let i = 0; i < INGEST_PAIRS + 1; i++) {
      const q = percentile(await ingest(false), 99);
      const s = percentile(await ingest(true), 99);
      if (i > 0) {
        quietP99.push(q);
        slowP99.push(s);
      }
    }
    const ingestRatio = median(slowP99) / median(quietP99);
    const ratio = p99 / bareP99;
    return {
      value: round(p99, 2),
      unit: 'ms p99 heartbeat → 10th channel',
      baseline: round(bareP99, 2),
      ratio: round(ratio, 3),
      goal: '<= 2x a bare fetch to the same 10 fakes; heartbeat p99 with 5 s channels within ±10 % of none',
      pass: ratio <= 2 && Math.abs(ingestRatio - 1) <= 0.1,
      rounds: ours.length,
      details: {
        fanout_p50_ms: round(percentile(ours, 50), 2),
        bare_fetch_p50_ms: round(percentile(bare, 50), 2),
        ingest_p99_no_channels_ms: quietP99.map((v) => round(v, 2)),
        ingest_p99_slow_channels_ms: slowP99.map((v) => round(v, 2)),
        ingest_p99_ratio: round(ingestRatio, 3),
        ingest_heartbeats: INGEST_HEARTBEATS,
        ingest_alerting_share: 1 / ALERT_EVERY,
        channels: CHANNELS,
        setup: 'app in-process (SQLite, memory cache), 10 webhook channels (the service\'s adapter) to loopback fakes',
        baseline: 'Promise.all of 10 fetch POSTs to the same fakes',
      },
    };
  },
};

await runIfMain(import.meta.url, scenario);
