/**
 * Validation stops at the first error for every request; a failed small request is validated
 * once more so the 422 names every field, a large one names the first only. Validators and
 * serializers compile on a route's first request and then behave as if compiled at start.
 */
import { Type } from 'typebox';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { compileOnFirstCall, installSerialization, installValidation, withinBudget } from '../../src/http/validation.js';

describe('withinBudget', () => {
  it.each([
    [1, 1, true],
    [[1, 2, 3], 4, true],
    [[1, 2, 3], 3, false],
    [{ a: { b: [1, 2] } }, 5, true],
    [{ a: { b: [1, 2] } }, 4, false],
    [Array.from({ length: 100_000 }, () => ({ x: 1 })), 2000, false],
  ])('%j within %i → %s', (value, budget, expected) => {
    expect(withinBudget(value, budget)).toBe(expected);
  });
});

describe('validation errors', () => {
  const app = Fastify();
  beforeAll(async () => {
    installValidation(app);
    installErrorHandling(app);
    app.post(
      '/x',
      {
        schema: {
          body: Type.Object({
            name: Type.String({ minLength: 1 }),
            port: Type.Integer({ minimum: 1 }),
            tags: Type.Array(Type.String({ maxLength: 3 }), { maxItems: 100_000 }),
          }),
        },
      },
      async () => ({ ok: true }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('a small bad body: every field is named', async () => {
    const res = await app.inject({ method: 'POST', url: '/x', payload: { name: '', port: 0, tags: ['toolong'] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.name', 'body.port', 'body.tags.0']);
  });

  it('a large bad body: the first error only, and no every-field pass over 50,000 bad items', async () => {
    const tags = Array.from({ length: 50_000 }, () => 'toolong');
    const res = await app.inject({ method: 'POST', url: '/x', payload: { name: 'a', port: 1, tags } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ path: 'body.tags.0', message: expect.any(String) }]);
  });

  it('a valid body passes once', async () => {
    const res = await app.inject({ method: 'POST', url: '/x', payload: { name: 'a', port: 1, tags: ['ok'] } });
    expect(res.json()).toEqual({ ok: true });
  });
});

describe('compiled on first use', () => {
  it('compileOnFirstCall compiles once, on the first call', () => {
    let compiled = 0;
    const double = compileOnFirstCall(() => {
      compiled++;
      return (n: number) => n * 2;
    });
    expect(compiled).toBe(0);
    expect([double(1), double(2), double(3)]).toEqual([2, 4, 6]);
    expect(compiled).toBe(1);
  });

  const app = Fastify();
  beforeAll(async () => {
    installValidation(app);
    installSerialization(app);
    installErrorHandling(app);
    app.get(
      '/y/:id',
      {
        schema: {
          params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
          querystring: Type.Object({ limit: Type.Integer({ default: 10, maximum: 50 }) }),
          response: { 200: Type.Object({ id: Type.Integer(), limit: Type.Integer() }) },
        },
      },
      async (req) => ({ ...(req.params as object), ...(req.query as object), secret: 'not in the schema' }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('params and query are coerced and checked, defaults applied, on the very first request', async () => {
    expect((await app.inject('/y/0')).statusCode).toBe(422);
    expect((await app.inject('/y/3?limit=51')).statusCode).toBe(422);
    expect((await app.inject('/y/3')).json()).toEqual({ id: 3, limit: 10 });
  });

  it('the response serializer is the response schema: an unlisted property never leaves', async () => {
    const res = await app.inject('/y/7?limit=5');
    expect(res.json()).toEqual({ id: 7, limit: 5 });
    expect(res.body).not.toContain('secret');
  });
});
