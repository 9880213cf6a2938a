/** One audit entry, the action names, and the CSV export with the list's filters (formula-safe cells). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { csvCell } from '../../../src/core/csv.js';
import { parseCsv } from '../../helpers/csv.js';

describe('csvCell', () => {
  it('neutralises formula starts and quotes separators', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=a,"b"')).toBe('"\'=a,""b"""');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
  });
});

describe.each(dbKinds())('audit detail and export on %s', (db) => {
  let t: TestApp;
  const call = async (url: string) => t.app.inject({ url, headers: await t.auth() });
  let serverId: number;

  beforeAll(async () => {
    t = await makeTestApp({ db });
    const headers = await t.auth();
    serverId = (
      await t.app.inject({ method: 'POST', url: '/api/servers', headers, payload: { name: '=HYPERLINK("x")', host: '10.0.0.1', auth_type: 'password', password: 'p' } })
    ).json().id;
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'POST', url: '/api/presets', headers, payload: { name: `-p${i},"q"`, encrypted_pw: 'x' } });
    }
  });
  afterAll(async () => t?.close());

  it('GET /api/audit/{id} answers the entry as the list shows it; 404 and 422 otherwise', async () => {
    const list = (await call('/api/audit?action=create_server')).json();
    const entry = list.items[0];
    const one = await call(`/api/audit/${entry.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(entry);
    expect(one.json()).toMatchObject({ target_type: 'server', target_id: String(serverId), target_name: '=HYPERLINK("x")', resource_type: 'server' });
    const missing = await call('/api/audit/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('audit_entry_not_found');
    expect((await call('/api/audit/x')).statusCode).toBe(422);
  });

  it('GET /api/audit/actions lists the distinct actions, sorted', async () => {
    const res = await call('/api/audit/actions');
    expect(res.statusCode).toBe(200);
    const actions = res.json() as string[];
    expect(actions).toEqual([...new Set(actions)].sort());
    expect(actions).toEqual(expect.arrayContaining(['create_preset', 'create_server', 'login']));
  });

  it('exports the filtered entries as CSV, newest first, with formula cells neutralised', async () => {
    const res = await call('/api/audit/export.csv?action=create_preset');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.body.startsWith('\ufeff')).toBe(true);
    const [header, ...rows] = parseCsv(res.body.slice(1));
    expect(header).toEqual(['id', 'created_at', 'admin_username', 'action', 'target_type', 'target_id', 'target_name', 'detail', 'ip_address']);
    const list = (await call('/api/audit?action=create_preset')).json();
    expect(rows.map((r) => Number(r[0]))).toEqual(list.items.map((i: { id: number }) => i.id));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r[3] === 'create_preset')).toBe(true);
    expect(rows[0][7]).toBe('name=-p2,"q"');

    const servers = parseCsv((await call('/api/audit/export.csv?action=create_server')).body.slice(1));
    expect(servers[1][6]).toBe(`'=HYPERLINK("x")`);
  });

  it('exports more rows than one chunk, each once', async () => {
    const values = Array.from({ length: 1203 }, (_, i) => ({
      admin_username: 'bulk', action: 'bulk_test', target_type: null, target_id: String(i), detail: null, ip_address: '127.0.0.1',
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 7)).toISOString(),
    }));
    await t.app.services.db.insertInto('audit_log').values(values).execute();
    const rows = parseCsv((await call('/api/audit/export.csv?admin_username=bulk')).body.slice(1)).slice(1);
    expect(rows).toHaveLength(1203);
    expect(new Set(rows.map((r) => r[5])).size).toBe(1203);
  });

  it('applies the date filters (Asia/Shanghai days) and refuses a bad date with 422', async () => {
    const none = parseCsv((await call('/api/audit/export.csv?date_to=2000-01-01')).body.slice(1));
    expect(none).toHaveLength(1);
    const bad = await call('/api/audit/export.csv?date_from=2026-13-45');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().code).toBeTruthy();
    const bulkDay = parseCsv((await call('/api/audit/export.csv?date_from=2026-01-01&date_to=2026-01-01&admin_username=bulk')).body.slice(1));
    expect(bulkDay).toHaveLength(1204);
  });
});
