/**
 * What every HTTP answer adds to the metrics, kept in plain maps and numbers and read by
 * prom-client only when `/metrics` is scraped. prom-client's `inc` and `observe` validate the
 * labels, build a label string and look it up in a table on every call; a small GET spent more in
 * them (the duration histogram above all) than in its own handler. Here an answer costs two map
 * lookups of keys Fastify already holds (interned strings), a bucket search over a dozen bounds
 * and a few additions; a scrape shows the same series with the same values.
 *
 * Bounded like prom-client's own series: routes × methods (× statuses for the counts).
 */
import { Counter, type Registry } from 'prom-client';

/** One route pattern and method: answers by status since the last scrape, and the durations ever. */
interface RouteMethod {
  readonly labels: { readonly method: string; readonly route: string };
  statuses: Map<number, number>;
  /** Per bound, the answers that took at most that bound and more than the one before (not cumulative). */
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** A value of prom-client's histogram format: what the registry prints as one line. */
interface SeriesValue {
  value: number;
  metricName: string;
  exemplar?: null;
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
}

export interface HttpTallyOptions {
  registry: Registry;
  /** Names and help of the two series, as prom-client would have registered them. */
  counter: { name: string; help: string };
  histogram: { name: string; help: string; buckets: readonly number[] };
}

export class HttpTally {
  private readonly byRoute = new Map<string, Map<string, RouteMethod>>();
  /** Creation order, which is the order prom-client prints a histogram's series in. */
  private readonly all: RouteMethod[] = [];
  private readonly bounds: readonly number[];
  private readonly counter: Counter<'method' | 'route' | 'status'>;

  constructor(o: HttpTallyOptions) {
    this.bounds = [...o.histogram.buckets].sort((a, b) => a - b);
    this.counter = new Counter({
      name: o.counter.name,
      help: o.counter.help,
      labelNames: ['method', 'route', 'status'] as const,
      registers: [o.registry],
      collect: () => this.foldCounts(),
    });
    o.registry.registerMetric(this.histogramMetric(o.histogram.name, o.histogram.help) as never);
  }

  /** One answer: its method, route pattern, status and duration in seconds. */
  add(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    let e = byMethod.get(method);
    if (e === undefined) {
      e = { labels: { method, route }, statuses: new Map(), buckets: new Array(this.bounds.length).fill(0), sum: 0, count: 0 };
      byMethod.set(method, e);
      this.all.push(e);
    }
    e.statuses.set(status, (e.statuses.get(status) ?? 0) + 1);
    // prom-client's rule: the first bound the value is at most; above the last, only +Inf (the count).
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]) {
        e.buckets[i]++;
        break;
      }
    }
    e.sum += seconds;
    e.count++;
  }

  private foldCounts(): void {
    for (const byMethod of this.byRoute.values()) {
      for (const e of byMethod.values()) {
        if (e.statuses.size === 0) continue;
        for (const [status, n] of e.statuses) this.counter.inc({ method: e.labels.method, route: e.labels.route, status: String(status) }, n);
        e.statuses = new Map();
      }
    }
  }

  /** prom-client's histogram values: per series its cumulative buckets, +Inf, sum and count. */
  private histogramValues(name: string): SeriesValue[] {
    const values: SeriesValue[] = [];
    for (const e of this.all) {
      const shared = { method: e.labels.method, route: e.labels.route };
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += e.buckets[i];
        values.push({ value: acc, metricName: `${name}_bucket`, exemplar: null, labels: { le: this.bounds[i] }, sharedLabels: shared });
      }
      values.push(
        { value: e.count, metricName: `${name}_bucket`, exemplar: null, labels: { le: '+Inf' }, sharedLabels: shared },
        { value: e.sum, metricName: `${name}_sum`, labels: {}, sharedLabels: shared },
        { value: e.count, metricName: `${name}_count`, labels: {}, sharedLabels: shared },
      );
    }
    return values;
  }

  /** The duration histogram as the registry reads a metric (the shape prom-client's Histogram gives). */
  private histogramMetric(name: string, help: string) {
    const read = (values: object[]) => ({ name, help, type: 'histogram' as const, values, aggregator: 'sum' as const });
    return {
      name,
      help,
      type: 'histogram' as const,
      aggregator: 'sum' as const,
      getForPromString: async () => read(this.histogramValues(name)),
      get: async () => read(this.histogramValues(name).map(({ labels, sharedLabels, ...v }) => ({ ...v, labels: { ...labels, ...sharedLabels } }))),
      // As prom-client's reset: every series goes (the counts not yet folded with them).
      reset: () => {
        this.all.length = 0;
        this.byRoute.clear();
      },
    };
  }
}
