/** Tags across the fleet: rename (with an explicit merge), remove; bad names are 4xx; both audited. */
import { afterAll, beforeEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';

describe.each(dbKinds())('server tags on %s', (db) => {
  let t: TestApp;
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: await t.auth(), ...(payload === undefined ? {} : { payload: payload as object }) });
  const tagsOf = async () => {
    const res = await call('GET', '/api/servers');
    return Object.fromEntries((res.json() as Array<{ name: string; tags: string[] }>).map((s) => [s.name, s.tags]));
  };
  const audits = async (action: string) => (await call('GET', `/api/audit?action=${action}`)).json().items as Array<Record<string, unknown>>;

  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    for (const s of (await call('GET', '/api/servers')).json() as Array<{ id: number }>) await call('DELETE', `/api/servers/${s.id}`);
    const fleet: Array<[string, string[]]> = [
      ['a', ['web', 'prod', 'eu']],
      ['b', ['web', 'staging']],
      ['c', ['prod', 'production']],
      ['d', ['webby', '50%_off', 'a/b', '机房']],
    ];
    for (const [name, tags] of fleet) expect((await call('POST', '/api/servers', { name, host: `${name}.example`, tags })).statusCode).toBe(201);
  });

  it('renames a tag on every server carrying it, in place, and leaves look-alikes alone', async () => {
    const res = await call('POST', '/api/servers/tags/rename', { from: 'web', to: 'frontend' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ from: 'web', to: 'frontend', servers: 2, merged: 0 });
    expect(await tagsOf()).toEqual({ a: ['frontend', 'prod', 'eu'], b: ['frontend', 'staging'], c: ['prod', 'production'], d: ['webby', '50%_off', 'a/b', '机房'] });
    const tagList = (await call('GET', '/api/servers/tags')).json() as Array<{ tag: string; count: number }>;
    expect(tagList.find((x) => x.tag === 'frontend')?.count).toBe(2);
    expect(tagList.find((x) => x.tag === 'web')).toBeUndefined();
    expect((await audits('rename_tag'))[0]).toMatchObject({ target_type: 'tag', target_id: 'web', detail: expect.stringContaining('frontend') });
  });

  it('refuses to merge into a tag in use unless asked, then merges keeping one copy', async () => {
    const refused = await call('POST', '/api/servers/tags/rename', { from: 'production', to: 'prod' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('tag_exists');
    expect((await tagsOf()).c).toEqual(['prod', 'production']);
    const merged = await call('POST', '/api/servers/tags/rename', { from: 'production', to: ' prod ', merge: true });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json()).toEqual({ from: 'production', to: 'prod', servers: 1, merged: 1 });
    expect((await tagsOf()).c).toEqual(['prod']);
  });

  it('matches tags with LIKE wildcards literally', async () => {
    const res = await call('POST', '/api/servers/tags/rename', { from: '50%_off', to: 'sale' });
    expect(res.json()).toMatchObject({ servers: 1 });
    expect((await tagsOf()).d).toEqual(['webby', 'sale', 'a/b', '机房']);
  });

  it.each([
    [{ from: 'web', to: '   ' }, 400, 'tag_invalid'],
    [{ from: 'web', to: 'x'.repeat(65) }, 400, 'tag_invalid'],
    [{ from: 'web', to: 'bad\nname' }, 400, 'tag_invalid'],
    [{ from: '', to: 'x' }, 400, 'tag_invalid'],
    [{ from: 'web', to: 'web' }, 400, 'tag_unchanged'],
    [{ from: 'nope', to: 'x' }, 404, 'tag_not_found'],
    [{ from: 'web' }, 422, 'validation_failed'],
  ])('rename %j → %i %s', async (body, status, code) => {
    const res = await call('POST', '/api/servers/tags/rename', body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().code).toBe(code);
    expect((await tagsOf()).a).toEqual(['web', 'prod', 'eu']);
  });

  it('removes a tag from every server carrying it; the servers stay; audited', async () => {
    const res = await call('DELETE', '/api/servers/tags/prod');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ from: 'prod', to: null, servers: 2, merged: 0 });
    expect(await tagsOf()).toEqual({ a: ['web', 'eu'], b: ['web', 'staging'], c: ['production'], d: ['webby', '50%_off', 'a/b', '机房'] });
    expect((await audits('delete_tag'))[0]).toMatchObject({ target_type: 'tag', target_id: 'prod', detail: '2 servers' });
  });

  it('removes an encoded tag name; unknown and blank names are 4xx', async () => {
    expect((await call('DELETE', `/api/servers/tags/${encodeURIComponent('50%_off')}`)).json()).toMatchObject({ servers: 1 });
    expect((await call('DELETE', `/api/servers/tags/${encodeURIComponent('a/b')}`)).json()).toMatchObject({ from: 'a/b', servers: 1 });
    expect((await call('DELETE', `/api/servers/tags/${encodeURIComponent('机房')}`)).json()).toMatchObject({ from: '机房', servers: 1 });
    expect((await tagsOf()).d).toEqual(['webby']);
    const missing = await call('DELETE', '/api/servers/tags/nope');
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'tag_not_found']);
    const blank = await call('DELETE', '/api/servers/tags/%20');
    expect([blank.statusCode, blank.json().code]).toEqual([400, 'tag_invalid']);
  });
});
