/**
 * JSON and query coercion turn `1e400` into Infinity, which Ajv's integer/maximum checks let
 * through, and unbounded integers can exceed what SQL columns hold. Refuse both after validation
 * so they never reach a service or a query.
 */
import type { FastifyInstance } from 'fastify';
import { UnprocessableError } from '../core/errors.js';

function findNonFinite(value: unknown, path: string, depth: number): string | null {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? null : path;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const hit = findNonFinite(v, `${path}.${k}`, depth + 1);
    if (hit) return hit;
  }
  return null;
}

export function installFiniteNumberGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request and needs no promise.
  app.addHook('preHandler', (req, _reply, done) => {
    const hit =
      findNonFinite(req.query, 'querystring', 0) ??
      findNonFinite(req.params, 'params', 0) ??
      findNonFinite(req.body, 'body', 0);
    if (!hit) return done();
    done(new UnprocessableError(`Validation failed: ${hit} must be a finite number within ±2^53`, [{ path: hit, message: 'must be a finite number within ±2^53' }]));
  });
}
