/**
 * Push-failure diagnosis: four checks in order (SSH, disk space, the directory, a write test), each its own command with a
 * 10 s limit, so a hung step names itself instead of swallowing the others. With `with_checks` the answer also carries
 * one verdict per check (reachability and auth told apart, rsync present) with advice; the spec's fields are unchanged.
 */
import crypto from 'node:crypto';
import { shellQuote } from '../../adapters/ssh/quote.js';
import type { SshConnectionErrorKind } from '../../adapters/ssh/errors.js';
import type { SshTarget } from '../../adapters/ssh/types.js';
import type { Actor } from '../../core/actor.js';
import { DomainError, isClientSafe, NotFoundError } from '../../core/errors.js';
import type { ServerRecord } from '../servers/index.js';
import { CheckList, connectionVerdict, DISK_WARN_PCT } from './diagnose-checks.js';
import { commandFailed, commandFailureDetail, isConnectionFailure } from './remote-errors.js';
import type { RemoteDeps } from './remote-deps.js';
import { assertNoNul, effectiveTargetDir } from './remote-paths.js';
import type { DiagnoseBody, DiagnoseResponse } from './remote.schemas.js';

const TIMEOUT_MS = 10_000;
const ERROR_CHARS = 300;
/** Exit status the existence check uses for "no such path" (distinct from a failing `stat`). */
const MISSING = 3;

/**
 * `df -hP` of the directory, or of its nearest existing ancestor while it does not exist yet
 * (that is the filesystem a push would create it on).
 */
function diskScript(dir: string): string {
  return [
    `d=${shellQuote(dir)}`,
    'while [ ! -e "$d" ] && [ "$d" != / ] && [ "$d" != . ]; do d=$(dirname -- "$d"); done',
    'LC_ALL=C exec df -hP -- "$d"',
  ].join('\n');
}

/** The first line of `rsync --version`, or exit MISSING when there is no rsync on the PATH. */
const RSYNC_SCRIPT = `command -v rsync >/dev/null 2>&1 || exit ${MISSING}; LC_ALL=C rsync --version | head -n 1`;

function existsScript(dir: string): string {
  return `p=${shellQuote(dir)}; if [ -e "$p" ] || [ -h "$p" ]; then LC_ALL=C exec stat -c %A -- "$p"; else exit ${MISSING}; fi`;
}

/** Create a fresh file (noclobber: never truncate someone else's) and remove it again. */
function writeScript(dir: string): string {
  const probe = `${dir.replace(/\/+$/, '')}/.fleet-write-test-${crypto.randomBytes(6).toString('hex')}`;
  return `f=${shellQuote(probe)}; (set -C; : > "$f") && rm -f -- "$f"`;
}

/** `df -P` data line → Avail (human form) and Use% as an integer. Filesystem names may hold spaces, so fields are found from the Use% column. */
export function parseDf(out: string): { avail: string; usedPct: number } | null {
  const lines = out.trim().split('\n');
  const fields = (lines[lines.length - 1] ?? '').trim().split(/\s+/);
  for (let i = 4; i < fields.length; i++) {
    const m = /^(\d+)%$/.exec(fields[i]);
    if (m) return { avail: fields[i - 1], usedPct: Number(m[1]) };
  }
  return null;
}

type StepOutcome =
  | { ok: true; stdout: string; exitCode: number }
  | { ok: false; error: string; connection: boolean; kind?: SshConnectionErrorKind };

export class DiagnoseService {
  constructor(private readonly d: RemoteDeps) {}

  async diagnose(actor: Actor, body: DiagnoseBody): Promise<DiagnoseResponse> {
    const serverId = body.server_id;
    const bodyTarget = body.target_path;
    if (bodyTarget) assertNoNul(bodyTarget, 'target_path');
    let row: ServerRecord;
    try {
      row = await this.d.servers.get(serverId);
    } catch (err) {
      // The spec audits diagnose always, an unknown server (404) included.
      if (err instanceof NotFoundError) {
        await this.d.audit.record(actor, 'diagnose', { type: 'server', id: serverId, detail: 'server not found' });
      }
      throw err;
    }
    const dir = effectiveTargetDir(bodyTarget, row.target_path);
    const list = new CheckList();
    const res = await this.checks(row, dir, list, body.with_checks === true);
    const summary = res.ssh_ok
      ? `dir=${dir} exists=${res.path_exists} writable=${res.path_writable} errors=${res.errors.length}`
      : `dir=${dir} ssh failed`;
    await this.d.audit.record(actor, 'diagnose', { type: 'server', id: row.id, detail: summary });
    return body.with_checks === true ? { ...res, checks: list.list() } : res;
  }

  private async checks(row: ServerRecord, dir: string, list: CheckList, withRsync: boolean): Promise<DiagnoseResponse> {
    const res: DiagnoseResponse = {
      server_id: row.id,
      server_name: row.name,
      ssh_ok: false,
      disk_avail: null,
      disk_used_pct: null,
      path_exists: null,
      path_perms: null,
      path_writable: null,
      errors: [],
    };
    // 1. Connectivity. Missing or undecryptable credentials are exactly what a diagnosis should report.
    let target: SshTarget;
    try {
      target = await this.d.servers.connectionFor(row.id);
    } catch (err) {
      if (!isClientSafe(err)) throw err;
      res.errors.push(`SSH connection failed: ${err.message}`);
      list.fail('auth', err.message, !(err instanceof DomainError) ? 'credentials_undecryptable' : 'add_credentials');
      return res;
    }
    const ping = await this.step(target, 'true');
    if (!ping.ok) {
      res.errors.push(`SSH connection failed: ${ping.error}`);
      const v = connectionVerdict(ping.kind ?? 'other');
      if (v.check === 'auth') list.ok('reachability');
      list.fail(v.check, ping.error, ping.connection ? v.advice : 'retry_later');
      return res;
    }
    res.ssh_ok = true;
    list.ok('reachability');
    list.ok('auth', `${row.username}@${row.host}`);

    // 2. Disk space.
    const disk = await this.step(target, diskScript(dir));
    if (!disk.ok) {
      res.errors.push(`Disk check failed: ${disk.error}`);
      list.fail('disk', disk.error, 'retry_later');
      if (disk.connection) return res;
    } else {
      const parsed = parseDf(disk.stdout);
      if (parsed) {
        res.disk_avail = parsed.avail;
        res.disk_used_pct = parsed.usedPct;
        const detail = `${parsed.avail} free, ${parsed.usedPct}% used`;
        if (parsed.usedPct >= DISK_WARN_PCT) list.warn('disk', detail, 'free_disk_space');
        else list.ok('disk', detail);
      } else {
        res.errors.push('Disk check failed: unexpected df output');
        list.fail('disk', 'unexpected df output', 'retry_later');
      }
    }

    // 3. Existence and permissions.
    const exists = await this.step(target, existsScript(dir), [MISSING]);
    if (!exists.ok) {
      res.errors.push(`Path check failed: ${exists.error}`);
      list.fail('path', exists.error, 'retry_later');
      if (exists.connection) return res;
    } else if (exists.exitCode === MISSING) {
      res.path_exists = false;
      res.errors.push(`Directory does not exist: ${dir}`);
    } else {
      res.path_exists = true;
      res.path_perms = exists.stdout.trim() || null;
    }

    // 4. Write test.
    if (res.path_exists === false) {
      res.path_writable = false;
      res.errors.push(`Directory is not writable: ${dir} does not exist`);
      list.fail('path', `${dir} does not exist`, 'create_directory');
    } else {
      const write = await this.step(target, writeScript(dir));
      res.path_writable = write.ok;
      if (!write.ok) {
        res.errors.push(`Directory is not writable: ${write.error}`);
        // A failed existence check keeps its own verdict: it is the first cause.
        if (exists.ok) list.fail('path', `${res.path_perms ?? ''} ${write.error}`.trim(), write.connection ? 'retry_later' : 'fix_permissions');
        if (write.connection) return res;
      } else if (exists.ok) {
        list.ok('path', `${dir} ${res.path_perms ?? ''}`.trim());
      }
    }

    // 5. rsync on the server (asked only with `with_checks`: the spec's answer has no field for it).
    if (withRsync) await this.rsyncCheck(target, list);
    return res;
  }

  private async rsyncCheck(target: SshTarget, list: CheckList): Promise<void> {
    const r = await this.step(target, RSYNC_SCRIPT, [MISSING]);
    if (!r.ok) list.fail('rsync', r.error, 'retry_later');
    else if (r.exitCode === MISSING) list.fail('rsync', 'rsync: command not found', 'install_rsync');
    else list.ok('rsync', r.stdout.trim().replace(/\s+/g, ' ') || null);
  }

  /** One check: a connection failure, a timeout or an unexpected exit status becomes an error text. */
  private async step(target: SshTarget, script: string, okCodes: number[] = []): Promise<StepOutcome> {
    try {
      const r = await this.d.ssh.exec(target, script, { timeoutMs: TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
      if (commandFailed(r) && !(r.exitCode !== null && okCodes.includes(r.exitCode))) {
        return { ok: false, error: commandFailureDetail(r, ERROR_CHARS, TIMEOUT_MS), connection: false };
      }
      return { ok: true, stdout: r.stdout, exitCode: r.exitCode ?? 0 };
    } catch (err) {
      if (!isConnectionFailure(err)) throw err;
      return { ok: false, error: err.message, connection: true, kind: err.kind };
    }
  }
}
