import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Three projects: `server` (the service's tests, against real sshd, PostgreSQL and Redis),
 * `web` (the console's components in jsdom) and `e2e` (journeys in Debian's Chromium against the
 * real service, one file at a time because each starts a service and a browser).
 */
export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    // Two cores: real sshd, PostgreSQL, Redis and Chromium are shared, so keep parallelism modest.
    maxWorkers: 2,
    teardownTimeout: 30_000,
    projects: [
      {
        test: {
          name: 'server',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          globalSetup: ['test/global-setup.ts'],
          pool: 'forks',
          // Memory tests collect garbage before they sample, so they measure what is kept, not GC timing.
          execArgv: ['--expose-gc'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@server': path.resolve(import.meta.dirname, 'src') } },
        test: {
          name: 'web',
          include: ['web/test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/test/setup.ts'],
          // Generous: the suite must pass with every core busy (jsdom renders slow down several-fold).
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts', 'test/e2e/support/global-setup.ts'],
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
