/**
 * Loads a CommonJS package on its first use instead of at start: the PostgreSQL (`pg`) and Redis
 * (`ioredis`) clients cost several MB of memory in every process, and the embedded default
 * (SQLite, in-process cache) never uses them; `ssh2` instantiates a WebAssembly module (~10 MB of
 * RSS) that an idle service without servers never needs. Synchronous, so the factories that need them stay
 * synchronous; Node caches the module, so later calls cost a map lookup.
 */
import { createRequire } from 'node:module';

export const requireOnUse = createRequire(import.meta.url);
