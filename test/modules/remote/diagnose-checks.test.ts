/**
 * `with_checks` on POST /api/sync/diagnose: the five verdicts (reachability, auth, disk, path,
 * rsync) with advice, against the real sshd; and the spec's answer unchanged without it.
 */
import { generateKey } from '../ssh-key-presets/keygen.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnoseService } from '../../../src/modules/remote/diagnose.service.js';
import type { RemoteDeps } from '../../../src/modules/remote/remote-deps.js';
import type { ServerRow } from '../../../src/db/types.js';
import { dbKinds } from '../../helpers/targets.js';
import { remoteTestApp, type RemoteTestApp } from './remote-helpers.js';

const SPEC_FIELDS = ['server_id', 'server_name', 'ssh_ok', 'disk_avail', 'disk_used_pct', 'path_exists', 'path_perms', 'path_writable', 'errors'];
const statuses = (checks: Array<{ check: string; status: string }>) => Object.fromEntries(checks.map((c) => [c.check, c.status]));

describe.each(dbKinds())('POST /api/sync/diagnose with_checks on %s', (db) => {
  let r: RemoteTestApp;
  let dir: string;

  beforeAll(async () => {
    r = await remoteTestApp(db);
    dir = r.remoteDir();
  });
  afterAll(async () => r?.close());

  it('without with_checks the answer has exactly the spec fields', async () => {
    const body = (await r.post('/api/sync/diagnose', { server_id: r.serverId, target_path: dir })).json();
    expect(Object.keys(body).sort()).toEqual([...SPEC_FIELDS].sort());
    const off = (await r.post('/api/sync/diagnose', { server_id: r.serverId, target_path: dir, with_checks: false })).json();
    expect(off.checks).toBeUndefined();
  });

  it('a healthy server: all five checks ok, rsync with its version, no advice', async () => {
    const res = await r.post('/api/sync/diagnose', { server_id: r.serverId, target_path: dir, with_checks: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ssh_ok: true, path_exists: true, path_writable: true, errors: [] });
    expect(body.checks.map((c: { check: string }) => c.check)).toEqual(['reachability', 'auth', 'disk', 'path', 'rsync']);
    expect(body.checks.every((c: { status: string; advice: unknown }) => c.status === 'ok' && c.advice === undefined)).toBe(true);
    expect(body.checks[4].detail).toMatch(/^rsync\s+version/);
    expect(body.checks[3].detail).toContain('drwxr-xr-x');
  });

  it('sshd not listening: reachability failed with start_sshd advice, the rest skipped', async () => {
    const dead = await r.deadServer();
    const body = (await r.post('/api/sync/diagnose', { server_id: dead, with_checks: true })).json();
    expect(body.ssh_ok).toBe(false);
    expect(body.checks[0]).toMatchObject({ check: 'reachability', status: 'failed', advice: 'start_sshd', detail: expect.stringMatching(/refused/i) });
    expect(body.checks[0].advice_text).toMatch(/start sshd/);
    expect(statuses(body.checks)).toEqual({ reachability: 'failed', auth: 'skipped', disk: 'skipped', path: 'skipped', rsync: 'skipped' });
    // The spec's fields keep their meaning.
    expect(body).toMatchObject({ disk_avail: null, path_exists: null, errors: [expect.stringMatching(/refused/i)] });
  });

  it('a key the server does not accept: reachability ok, auth failed with check_credentials', async () => {
    const other = generateKey('ed25519');
    const id = await r.createServer({ name: 'stranger-key', private_key: other.privateKey });
    const body = (await r.post('/api/sync/diagnose', { server_id: id, with_checks: true })).json();
    expect(statuses(body.checks)).toMatchObject({ reachability: 'ok', auth: 'failed', disk: 'skipped' });
    expect(body.checks[1].advice).toBe('check_credentials');
  });

  it('no credentials: auth failed with add_credentials', async () => {
    const id = await r.createServer({ name: 'no-creds-checks', private_key: null });
    const body = (await r.post('/api/sync/diagnose', { server_id: id, with_checks: true })).json();
    expect(body.checks[1]).toMatchObject({ check: 'auth', status: 'failed', advice: 'add_credentials' });
    expect(body.checks[0].status).toBe('skipped');
  });

  it('a missing directory: path failed with create_directory; not writable: fix_permissions', async () => {
    const missing = (await r.post('/api/sync/diagnose', { server_id: r.serverId, target_path: `${dir}/nope`, with_checks: true })).json();
    expect(missing.checks[3]).toMatchObject({ check: 'path', status: 'failed', advice: 'create_directory' });
    expect(missing.checks[4].status).toBe('ok');
    const rootOwned = r.stagingDir();
    const ro = (await r.post('/api/sync/diagnose', { server_id: r.serverId, target_path: rootOwned, with_checks: true })).json();
    expect(ro.checks[3]).toMatchObject({ check: 'path', status: 'failed', advice: 'fix_permissions' });
    expect(ro.checks[3].detail).toMatch(/Permission denied/);
  });

  it('with_checks must be a boolean (422)', async () => {
    const res = await r.post('/api/sync/diagnose', { server_id: r.serverId, with_checks: 'yes' });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('validation_failed');
  });

  it('is audited as diagnose, as without checks', async () => {
    const rows = await r.audit('diagnose');
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.every((x) => x.target_type === 'server')).toBe(true);
  });
});

describe('diagnose checks against a scripted server', () => {
  const row = { id: 7, name: 'box', host: 'h', username: 'u', target_path: '/data' } as unknown as ServerRow;
  /** A fake SSH whose every command succeeds, except those matching `missing` (exit 3) — rsync absent, a nearly full disk. */
  function service(opts: { usedPct: number; rsync: boolean }) {
    const deps = {
      servers: { get: async () => row, connectionFor: async () => ({}) },
      audit: { record: async () => undefined },
      ssh: {
        exec: async (_t: unknown, script: string) => {
          if (script.includes('df -hP')) return { exitCode: 0, stdout: `Filesystem Size Used Avail Use% Mounted on\n/dev/x 10G 9G 1G ${opts.usedPct}% /\n`, stderr: '', timedOut: false };
          if (script.includes('stat -c %A')) return { exitCode: 0, stdout: 'drwxr-xr-x\n', stderr: '', timedOut: false };
          if (script.includes('rsync')) return opts.rsync ? { exitCode: 0, stdout: 'rsync  version 3.2.7  protocol version 31\n', stderr: '', timedOut: false } : { exitCode: 3, stdout: '', stderr: '', timedOut: false };
          return { exitCode: 0, stdout: '', stderr: '', timedOut: false };
        },
      },
    } as unknown as RemoteDeps;
    return new DiagnoseService(deps);
  }
  const actor = { username: 'admin', ip: '127.0.0.1' } as never;

  it('rsync missing: failed with install_rsync; errors (the spec field) unchanged', async () => {
    const res = await service({ usedPct: 10, rsync: false }).diagnose(actor, { server_id: 7, with_checks: true });
    expect(res.checks?.[4]).toMatchObject({ check: 'rsync', status: 'failed', advice: 'install_rsync' });
    expect(res.errors).toEqual([]);
    expect(res.checks?.[4].advice_text).toMatch(/install/);
  });

  it('a disk 90 % used or more is a warning with free_disk_space; rsync version compacted', async () => {
    const res = await service({ usedPct: 95, rsync: true }).diagnose(actor, { server_id: 7, with_checks: true });
    expect(res.checks?.[2]).toMatchObject({ check: 'disk', status: 'warning', advice: 'free_disk_space', detail: '1G free, 95% used' });
    expect(res.checks?.[4]).toMatchObject({ status: 'ok', detail: 'rsync version 3.2.7 protocol version 31' });
    expect(res.disk_used_pct).toBe(95);
  });
});
