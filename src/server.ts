/**
 * Process entry: the process role, listening, graceful close. WORKERS=1 runs one `single`
 * process that does everything. WORKERS>1 runs a `primary` that only supervises: it forks one
 * `owner` worker, which migrates, runs the first start, owns the background work and serves
 * HTTP, and once the owner listens, the other `worker`s, which share the port and only serve
 * HTTP. A worker that dies is forked again in the same role (after a growing wait; the primary
 * gives up and exits non-zero when they keep dying), and its claimed work comes back through
 * leases. The primary never loads the app (Fastify, the database, the modules): the app is
 * imported only where HTTP is served, so the supervisor stays a small process.
 */
import cluster, { type Worker } from 'node:cluster';
import pino from 'pino';
import { loadConfig, type AppConfig } from './config/config.js';
import { errorMessage } from './core/errors.js';
import { RestartPolicy } from './core/restart-policy.js';
import type { Logger } from './core/logger.js';
import { redactUrl } from './core/redact-url.js';
import type { ProcessRole } from './platform/process-role.js';

/** Tells a forked worker its role: the owner does the primary's former duties as well. */
const ROLE_ENV = 'FLEET_WORKER_ROLE';

const GRACE_MS = 10_000;

/** SIGTERM/SIGINT close once; a close that hangs past the grace period exits anyway. */
function onSignals(close: () => Promise<void>, log: Logger): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), GRACE_MS).unref();
    try {
      await close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

async function runHttp(config: AppConfig, role: Exclude<ProcessRole, 'primary'>): Promise<void> {
  const { buildApp } = await import('./app.js');
  const app = await buildApp(config, { role });
  onSignals(() => app.close(), app.log);
  await app.listen({ host: config.host, port: config.port });
}

function runPrimary(config: AppConfig, log: Logger): void {
  log.info({ workers: config.workers, cache: redactUrl(config.cacheUrl) }, 'starting workers');
  let stopping = false;
  let othersForked = false;
  const restarts = new RestartPolicy();
  const pending = new Set<NodeJS.Timeout>();
  const roles = new Map<number, 'owner' | 'worker'>();
  const forkedAt = new Map<number, number>();
  const fork = (role: 'owner' | 'worker'): Worker => {
    const w = cluster.fork({ [ROLE_ENV]: role });
    roles.set(w.id, role);
    forkedAt.set(w.id, Date.now());
    // Migrations and the first start happen in the owner before any other worker serves.
    if (role === 'owner') {
      w.once('listening', () => {
        if (othersForked || stopping) return;
        othersForked = true;
        for (let i = 1; i < config.workers; i++) fork('worker');
      });
    }
    return w;
  };
  const stopAll = async () => {
    stopping = true;
    for (const t of pending) clearTimeout(t);
    const exited = Object.values(cluster.workers ?? {}).map(
      (w) => new Promise<void>((resolve) => (w && !w.isDead() ? w.once('exit', () => resolve()).process.kill('SIGTERM') : resolve())),
    );
    await Promise.all(exited);
  };
  fork('owner');
  cluster.on('exit', (worker, code, signal) => {
    const role = roles.get(worker.id) ?? 'worker';
    roles.delete(worker.id);
    if (stopping) return;
    const decision = restarts.onCrash(Date.now() - (forkedAt.get(worker.id) ?? Date.now()));
    forkedAt.delete(worker.id);
    if (decision.action === 'give-up') {
      log.error({ pid: worker.process.pid, code, signal, crashes: decision.streak }, 'workers keep crashing; stopping the service');
      void stopAll().finally(() => process.exit(1));
      return;
    }
    log.error({ pid: worker.process.pid, role, code, signal, restartInMs: decision.delayMs }, 'worker exited; starting a new one');
    const t = setTimeout(() => {
      pending.delete(t);
      if (!stopping) fork(role);
    }, decision.delayMs);
    pending.add(t);
  });
  onSignals(stopAll, log);
}

async function main(): Promise<void> {
  // A cluster worker is forked after its primary prepared the data directory: it only reads keys.
  const config = loadConfig(process.env, { create: !cluster.isWorker });
  if (config.workers > 1 && cluster.isPrimary) {
    // Its lines carry no request and no secret: plain pino, without the HTTP serializers.
    return runPrimary(config, pino({ level: config.logLevel }));
  }
  if (!cluster.isWorker) return runHttp(config, 'single');
  return runHttp(config, process.env[ROLE_ENV] === 'owner' ? 'owner' : 'worker');
}

main().catch((err: unknown) => {
  process.stderr.write(`Fleet Admin could not start: ${errorMessage(err)}\n`);
  process.exit(1);
});
