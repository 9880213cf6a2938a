import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateApiTypes, OUTPUT, readOpenApi, routeMapSchema } from '../../scripts/gen-api-types.js';

describe('the console route map (web/src/api/routes.gen.ts)', () => {
  it('is what the service schemas generate now: run `npm run gen:api` after changing a route', async () => {
    expect(fs.readFileSync(OUTPUT, 'utf8')).toBe(await generateApiTypes());
  }, 60_000);

  it('holds every /api operation of the OpenAPI document under "METHOD /path", with all its successes', async () => {
    const doc = await readOpenApi();
    const map = routeMapSchema(doc) as { properties: Record<string, { properties: { reply: { anyOf?: unknown[] } } }> };
    let operations = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      if (!p.startsWith('/api/')) continue;
      for (const m of Object.keys(item)) {
        operations++;
        const key = `${m.toUpperCase()} ${p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p}`;
        expect(map.properties[key], key).toBeDefined();
      }
    }
    expect(Object.keys(map.properties)).toHaveLength(operations);
    // An async push answers 202 {batch_id, status}, a synchronous one 200 with the batch: both are typed.
    expect(map.properties['POST /api/sync/files']?.properties.reply.anyOf).toHaveLength(2);
  }, 60_000);
});
