/**
 * The HTTP answer tally prints what prom-client's own counter and histogram would have printed
 * for the same answers: the same lines (series order aside, which Prometheus ignores), scrape
 * after scrape.
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HttpTally } from '../../../src/platform/metrics/http-tally.js';

const COUNTER = { name: 'fleet_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status' };
const HISTOGRAM = { name: 'fleet_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method and route pattern' };
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The same answers through prom-client directly, as the metrics were kept before the tally. */
function promClientPeer() {
  const registry = new Registry();
  const counter = new Counter({ ...COUNTER, labelNames: ['method', 'route', 'status'] as const, registers: [registry] });
  const histogram = new Histogram({ ...HISTOGRAM, labelNames: ['method', 'route'] as const, buckets: BUCKETS, registers: [registry] });
  return {
    registry,
    add(method: string, route: string, status: number, seconds: number) {
      counter.inc({ method, route, status: String(status) });
      histogram.observe({ method, route }, seconds);
    },
  };
}

/** A scrape's lines, in a fixed order: the same series with the same values compare equal. */
const lines = async (registry: Registry) => (await registry.metrics()).split('\n').sort();

describe('HttpTally', () => {
  it('scrapes as prom-client would, counts folded once and durations kept', async () => {
    const registry = new Registry();
    const tally = new HttpTally({ registry, counter: COUNTER, histogram: { ...HISTOGRAM, buckets: BUCKETS } });
    const peer = promClientPeer();
    const routes = ['/api/auth/me', '/health', 'unmatched', '/api/servers/:id', 'a"b\\c\nd'];
    // Durations on, just above and far beyond the bounds, and a zero.
    const seconds = [0, 0.0001, 0.005, 0.0050001, 0.3, 30, 31, 2.5, 0.01, 1e-9];
    const answer = (i: number) => {
      const a = [i % 3 ? 'GET' : 'POST', routes[(i * 7) % routes.length], [200, 404, 401, 500, 201][Math.floor(i / 7) % 5], seconds[i % seconds.length]] as const;
      tally.add(...a);
      peer.add(...a);
    };
    expect(await lines(registry)).toEqual(await lines(peer.registry)); // nothing answered yet
    for (let i = 0; i < 500; i++) answer(i);
    expect(await lines(registry)).toEqual(await lines(peer.registry));
    expect(await lines(registry)).toEqual(await lines(peer.registry)); // a scrape changes nothing
    for (let i = 500; i < 1200; i++) answer(i);
    const text = await lines(registry);
    expect(text).toEqual(await lines(peer.registry));
    // Every route × method has its series (a different answer order would have hidden nothing).
    expect(text.filter((l) => l.startsWith('fleet_http_request_duration_seconds_count{')).length).toBe(10);
    expect(text.filter((l) => l.startsWith('fleet_http_requests_total{')).length).toBeGreaterThan(10);
  });
});
