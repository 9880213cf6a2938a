/**
 * Process entry: listen, graceful close, and with WORKERS>1 a cluster of workers sharing one
 * port. The primary runs migrations and the first-start bootstrap once, then forks.
 */
import cluster from 'node:cluster';
import pino from 'pino';
import { buildApp, REDACT_PATHS } from './app.js';
import { loadConfig, type AppConfig } from './config.js';
import { createContainer } from './container.js';
import { errorMessage } from './core/errors.js';
import { redactUrl } from './db/database.js';

const log = pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } });

async function runWorker(config: AppConfig): Promise<void> {
  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ host: config.host, port: config.port });
}

async function runPrimary(config: AppConfig): Promise<void> {
  // Migrate and bootstrap once, before any worker starts serving.
  const container = await createContainer(config, log);
  await container.close();
  log.info({ workers: config.workers, cache: redactUrl(config.cacheUrl) }, 'starting workers');
  for (let i = 0; i < config.workers; i++) cluster.fork();
  let stopping = false;
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    log.error({ pid: worker.process.pid, code }, 'worker exited; starting a new one');
    cluster.fork();
  });
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config);
  if (cluster.isWorker) config.bootstrap = false;
  return runWorker(config);
}

main().catch((err: unknown) => {
  log.fatal({ err: errorMessage(err) }, 'start-up failed');
  process.stderr.write(`Fleet Admin could not start: ${errorMessage(err)}\n`);
  process.exit(1);
});
