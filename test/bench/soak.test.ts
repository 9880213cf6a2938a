/** The soak's own arithmetic and its attribution of a /metrics answer to the process that gave it. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { growthByProcess, growthFailures, serviceFds, type Sample } from '../../bench/soak/checks.js';
import { parseMetrics, readProc, scrape, sumOf } from '../../bench/soak/probe.js';

const TEXT = [
  '# HELP fleet_push_servers_total Servers a push batch finished, by outcome',
  '# TYPE fleet_push_servers_total counter',
  'fleet_push_servers_total{outcome="success"} 12',
  'fleet_push_servers_total{outcome="failed"} 1',
  'fleet_process_open_fds 41',
  'fleet_heartbeats_total 2000',
  '',
].join('\n');

describe('soak metrics parsing', () => {
  it('sums a counter over its labels, or only one label value', () => {
    const m = parseMetrics(TEXT);
    expect(sumOf(m, 'fleet_push_servers_total')).toBe(13);
    expect(sumOf(m, 'fleet_push_servers_total', 'outcome="failed"')).toBe(1);
    expect(sumOf(m, 'fleet_heartbeats_total')).toBe(2000);
    expect(m.get('fleet_process_open_fds')).toBe(41);
  });
});

describe('soak growth', () => {
  const series = (values: number[], pid = 1): Sample[] => values.map((v, i) => ({ t: i * 10, pid, rss: v, fds: 40 }));

  it('one high sample (a major GC pending, a push running) is not growth', () => {
    const g = growthByProcess(series([100, 101, 99, 100, 160, 100, 101, 99, 100, 100, 101, 100]), 0);
    expect(g[0].rss?.growth).toBeLessThan(0.05);
    expect(growthFailures(g, serviceFds(series([1]), 0))).toEqual([]);
  });

  it('a steady climb after the warm-up fails, and the warm-up itself is not counted', () => {
    const climbing = series([50, 80, 100, 104, 108, 112, 116, 120, 124, 128, 132, 136], 7);
    const g = growthByProcess(climbing, 20);
    expect(g[0].rss?.from).toBe(104);
    expect(growthFailures(g, serviceFds(climbing, 20))).toEqual([expect.stringContaining('pid 7 rss grew')]);
  });

  it('descriptors moving between cluster workers are not growth; the service leaking them is', () => {
    // Two workers of a cluster (the figures of a quick soak): a pooled SSH connection closes on one
    // and opens on the other as pushes land on either.
    const a = [31, 31, 31, 30, 35, 36, 36, 36, 35, 35];
    const b = [56, 56, 54, 45, 47, 49, 49, 47, 44, 42];
    const both = (fa: number[], fb: number[]): Sample[] =>
      fa.flatMap((n, i) => [
        { t: i * 10, pid: 1, rss: 100, fds: n },
        { t: i * 10, pid: 2, rss: 100, fds: fb[i] },
      ]);
    const moving = both(a, b);
    expect(growthFailures(growthByProcess(moving, 0), serviceFds(moving, 0))).toEqual([]);
    const leaking = both(a.map((n, i) => n + i * 4), b);
    expect(growthFailures(growthByProcess(leaking, 0), serviceFds(leaking, 0))).toEqual([expect.stringContaining('service fds grew')]);
  });
});

describe('soak scrape attribution', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end(TEXT));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('finds the process holding the service side of the scrape connection', async () => {
    const s = await scrape(`http://127.0.0.1:${port}`, 'token', port, [process.pid]);
    expect(s.pid).toBe(process.pid);
    expect(sumOf(s.metrics, 'fleet_push_servers_total')).toBe(13);
  });

  it('reads RSS and descriptors of a live process, null for a gone one', () => {
    const me = readProc(process.pid);
    expect(me?.rss).toBeGreaterThan(10 * 1024 * 1024);
    expect(me?.fds).toBeGreaterThan(3);
    expect(readProc(2 ** 22 + 1)).toBeNull();
  });
});
