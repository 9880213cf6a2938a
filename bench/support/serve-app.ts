/**
 * Runs a bench app in its own process (so a load generator in the parent does not share its CPU):
 * prints `{ url, token, pid, databaseUrl }` as one JSON line, then serves until stdin closes or SIGTERM.
 * Environment for the app comes as JSON in BENCH_APP_ENV. Logging is production's (to /dev/null).
 */
import { startBenchApp } from './app.js';
import { serveUntilStopped } from './serve-child.js';

// The service as it runs in production: its logger on, at its configured level (requests that
// succeed log nothing at `info`, but each still gets its child logger and level checks).
const app = await startBenchApp(JSON.parse(process.env.BENCH_APP_ENV ?? '{}') as Record<string, string>, { productionLogging: true });
serveUntilStopped({ url: app.url, token: app.token, pid: process.pid, databaseUrl: app.app.services.config.databaseUrl }, () => app.close());
