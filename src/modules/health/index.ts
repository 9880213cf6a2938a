/** The public `GET /health` probe. */
import type { Cache } from '../../adapters/cache/cache.js';
import { mount, type Feature } from '../../platform/feature.js';
import { healthRoutes } from './health.routes.js';
import { HealthService } from './health.service.js';

export function createHealthModule(d: { pingDb: () => Promise<unknown>; cache: Pick<Cache, 'ping'>; version: string }) {
  const health = new HealthService(d);
  const feature: Feature = { name: 'health', routes: [mount('', healthRoutes, { health })] };
  return { feature };
}
