/**
 * Process entry: the process role, listening, graceful close. WORKERS=1 runs one `single`
 * process that does everything. WORKERS>1 runs a `primary` that migrates, runs the first start
 * and owns the background work, then forks `worker`s that share one port and only serve HTTP;
 * a worker that dies is forked again (after a growing wait; the primary gives up and exits
 * non-zero when they keep dying), and its claimed work comes back through leases.
 */
import cluster from 'node:cluster';
import pino from 'pino';
import { buildApp } from './app.js';
import { compose } from './composition/compose.js';
import { loadConfig, type AppConfig } from './config/config.js';
import { errorMessage } from './core/errors.js';
import { RestartPolicy } from './core/restart-policy.js';
import type { Logger } from './core/logger.js';
import { redactUrl } from './db/database.js';
import { logOptions } from './http/log-options.js';

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

async function runHttp(config: AppConfig, role: 'single' | 'worker'): Promise<void> {
  const app = await buildApp(config, { role });
  onSignals(() => app.close(), app.log);
  await app.listen({ host: config.host, port: config.port });
}

async function runPrimary(config: AppConfig, log: Logger): Promise<void> {
  // Migrations and the first start happen before any worker serves a request.
  const root = await compose(config, 'primary', log);
  await root.start();
  log.info({ workers: config.workers, cache: redactUrl(config.cacheUrl) }, 'starting workers');
  let stopping = false;
  const restarts = new RestartPolicy();
  const pending = new Set<NodeJS.Timeout>();
  const stopAll = async () => {
    stopping = true;
    for (const t of pending) clearTimeout(t);
    const exited = Object.values(cluster.workers ?? {}).map(
      (w) => new Promise<void>((resolve) => (w && !w.isDead() ? w.once('exit', () => resolve()).process.kill('SIGTERM') : resolve())),
    );
    await Promise.all(exited);
    await root.stop();
  };
  const forkedAt = new Map<number, number>();
  cluster.on('fork', (w) => forkedAt.set(w.id, Date.now()));
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const decision = restarts.onCrash(Date.now() - (forkedAt.get(worker.id) ?? Date.now()));
    forkedAt.delete(worker.id);
    if (decision.action === 'give-up') {
      log.error({ pid: worker.process.pid, code, signal, crashes: decision.streak }, 'workers keep crashing; stopping the service');
      void stopAll().finally(() => process.exit(1));
      return;
    }
    log.error({ pid: worker.process.pid, code, signal, restartInMs: decision.delayMs }, 'worker exited; starting a new one');
    const t = setTimeout(() => {
      pending.delete(t);
      if (!stopping) cluster.fork();
    }, decision.delayMs);
    pending.add(t);
  });
  onSignals(stopAll, log);
}

async function main(): Promise<void> {
  // A cluster worker is forked after its primary prepared the data directory: it only reads keys.
  const config = loadConfig(process.env, { create: !cluster.isWorker });
  const log = pino(logOptions(config.logLevel));
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, log);
  return runHttp(config, cluster.isWorker ? 'worker' : 'single');
}

main().catch((err: unknown) => {
  process.stderr.write(`Fleet Admin could not start: ${errorMessage(err)}\n`);
  process.exit(1);
});
