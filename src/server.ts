/**
 * Process entry: the process role, listening, graceful close. WORKERS=1 runs one `single`
 * process that does everything. WORKERS>1 runs a `primary` that migrates, runs the first start
 * and owns the background work, then forks `worker`s that share one port and only serve HTTP;
 * a worker that dies is forked again, and its claimed work comes back through leases.
 */
import cluster from 'node:cluster';
import pino from 'pino';
import { buildApp } from './app.js';
import { compose } from './composition/compose.js';
import { loadConfig, type AppConfig } from './config/config.js';
import { errorMessage } from './core/errors.js';
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
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting a new one');
    cluster.fork();
  });
  onSignals(async () => {
    stopping = true;
    const exited = Object.values(cluster.workers ?? {}).map(
      (w) => new Promise<void>((resolve) => (w && !w.isDead() ? w.once('exit', () => resolve()).process.kill('SIGTERM') : resolve())),
    );
    await Promise.all(exited);
    await root.stop();
  }, log);
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
