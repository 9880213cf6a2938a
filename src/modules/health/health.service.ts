/** `GET /health`: is the service up, and can it reach its database and cache (each probe ≤ 2 s)? */
import type { Cache } from '../../adapters/cache/cache.js';
import type { HealthView, ProbeStatus } from './health.schemas.js';

export interface HealthDeps {
  pingDb: () => Promise<unknown>;
  cache: Pick<Cache, 'ping'>;
  version: string;
}

const PROBE_TIMEOUT_MS = 2000;

async function probe(fn: () => Promise<unknown>): Promise<ProbeStatus> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

export class HealthService {
  constructor(private readonly d: HealthDeps) {}

  async check(): Promise<HealthView> {
    const [db, cache] = await Promise.all([probe(this.d.pingDb), probe(() => this.d.cache.ping())]);
    return { status: 'ok', db, cache, version: this.d.version };
  }
}
