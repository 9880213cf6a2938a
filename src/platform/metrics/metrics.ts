/**
 * The service's own figures in the Prometheus format (`GET /metrics`, with prom-client): one
 * registry per app (never prom-client's global one, so two apps in one process do not mix),
 * counters the modules bump as things happen, and gauges read at scrape time from whoever knows
 * the answer (open alerts, retry jobs, the SSH pool). Names start with `fleet_`; the process's
 * own figures (CPU, memory, file descriptors, event-loop lag) come from prom-client's defaults.
 * With WORKERS > 1 every process keeps its own: a scrape answers for the process it reached.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { HttpTally } from './http-tally.js';

export type PushOutcome = 'success' | 'failed' | 'skipped';
export type NotificationOutcome = 'sent' | 'failed' | 'skipped';
/** One delivery attempt of an outbox row: delivered, retry (failed, tried again later), failed (for good), deferred (rate limit). */
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'deferred';
/** A gauge's values at scrape time: one number, or one per label value. */
export type GaugeReading = number | Record<string, number>;

export class Metrics {
  readonly registry = new Registry();
  /** `fleet_http_requests_total` and `fleet_http_request_duration_seconds`, tallied per answer and read when scraped. */
  private readonly http = new HttpTally({
    registry: this.registry,
    counter: { name: 'fleet_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status' },
    histogram: {
      name: 'fleet_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route pattern',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    },
  });
  private readonly pushServers = new Counter({
    name: 'fleet_push_servers_total',
    help: 'Servers a push batch finished, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly pushBatches = new Counter({
    name: 'fleet_push_batches_total',
    help: 'Push batches closed, by status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly rsyncBytes = new Counter({
    name: 'fleet_rsync_bytes_total',
    help: 'Bytes of file data rsync sent to servers in successful pushes',
    registers: [this.registry],
  });
  private readonly heartbeats = new Counter({ name: 'fleet_heartbeats_total', help: 'Agent heartbeats accepted', registers: [this.registry] });
  private readonly leaseRecoveries = new Counter({
    name: 'fleet_lease_recoveries_total',
    help: 'Claimed work whose owner stopped renewing its lease, closed by this process (push batches, retry jobs)',
    labelNames: ['work'] as const,
    registers: [this.registry],
  });
  private readonly notifications = new Counter({
    name: 'fleet_notifications_total',
    help: 'Notifications by outcome (sent: queued for at least one destination; skipped: switched off, no destination or a duplicate)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly notificationDeliveries = new Counter({
    name: 'fleet_notification_deliveries_total',
    help: 'Notification delivery attempts by channel type and outcome (delivered, retry, failed, deferred by the rate limit)',
    labelNames: ['channel_type', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'fleet_' });
  }

  httpAnswered(method: string, route: string, status: number, seconds: number): void {
    this.http.add(method, route, status, seconds);
  }

  pushServerDone(outcome: PushOutcome, bytes = 0): void {
    this.pushServers.inc({ outcome });
    if (bytes > 0) this.rsyncBytes.inc(bytes);
  }

  pushBatchDone(status: string): void {
    this.pushBatches.inc({ status });
  }

  heartbeat(): void {
    this.heartbeats.inc();
  }

  leasesRecovered(work: string, n: number): void {
    if (n > 0) this.leaseRecoveries.inc({ work }, n);
  }

  notification(kind: string, outcome: NotificationOutcome): void {
    this.notifications.inc({ kind, outcome });
  }

  notificationDelivery(channelType: string, outcome: DeliveryOutcome): void {
    this.notificationDeliveries.inc({ channel_type: channelType, outcome });
  }

  /** A gauge whose value is read when scraped; a reading that fails leaves the gauge out of that scrape. */
  gauge(name: string, help: string, read: () => Promise<GaugeReading> | GaugeReading, label = 'kind'): void {
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [this.registry],
      async collect() {
        this.reset();
        let v: GaugeReading;
        try {
          v = await read();
        } catch {
          return; // the database or cache is away: this scrape goes without it, the rest still answers
        }
        if (typeof v === 'number') this.set(v);
        else for (const [k, n] of Object.entries(v)) this.set({ [label]: k }, n);
      },
    });
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
