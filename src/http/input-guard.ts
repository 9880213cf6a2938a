/**
 * One rule for every route's params, querystring and JSON body, so no route can forget it:
 *
 * - a NUL character anywhere in a string (or a property name) is a 422 naming the field.
 *   PostgreSQL cannot store or compare text containing NUL (it answers "invalid byte sequence"),
 *   SQLite can, and no remote argv can carry one; refusing it here gives both databases the same
 *   answer. A schema `pattern` per field would do the same but is one more thing a new route can
 *   forget, hence a hook.
 * - a number that is not finite or beyond ±2^53 is a 422: JSON and query coercion turn `1e400`
 *   into Infinity, which Ajv's integer/maximum checks let through.
 *
 * It runs as a preHandler, after validation (which has already dropped unlisted properties), on
 * the parsed values only: a multipart body is a stream the handler reads, and is never walked
 * here (its fields are checked where they are read). Schemas bound the nesting, so the walk stops
 * at a depth no input schema reaches.
 */
import type { FastifyInstance } from 'fastify';
import { UnprocessableError } from '../core/errors.js';

const MAX_DEPTH = 32;

interface Hit {
  path: string;
  message: string;
}

const NUL_MESSAGE = 'must not contain a NUL character';
const NUMBER_MESSAGE = 'must be a finite number within ±2^53';

function findBadValue(value: unknown, path: string, depth: number): Hit | null {
  if (typeof value === 'string') return value.includes('\0') ? { path, message: NUL_MESSAGE } : null;
  if (typeof value === 'number') {
    return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? null : { path, message: NUMBER_MESSAGE };
  }
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return null;
  // Only parsed JSON and query objects: a Buffer or a stream some parser hands over is no field list.
  if (ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findBadValue(value[i], `${path}.${i}`, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    if (k.includes('\0')) return { path: `${path}.${k.replace(/\0/g, '\\0')}`, message: NUL_MESSAGE };
    const hit = findBadValue((value as Record<string, unknown>)[k], `${path}.${k}`, depth + 1);
    if (hit) return hit;
  }
  return null;
}

export function installInputGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request and needs no promise.
  app.addHook('preHandler', (req, _reply, done) => {
    const hit =
      findBadValue(req.params, 'params', 0) ??
      findBadValue(req.query, 'querystring', 0) ??
      (req.body === undefined || req.body === null ? null : findBadValue(req.body, 'body', 0));
    if (!hit) return done();
    done(new UnprocessableError(`Validation failed: ${hit.path} ${hit.message}`, [hit]));
  });
}
