/**
 * The fleet. Besides CRUD this is the entry point every remote feature uses:
 *
 *   const target = await c.servers.connectionFor(serverId);   // 404 "Server not found"
 *   const r = await c.ssh.exec(target, ['ls', '-la', path], { timeoutMs: 10_000 });
 *
 * `connectionFor` decrypts the server's credentials (inline first, then its preset) and carries the
 * pinned host key; the shared pool pins a first-seen key through `pinHostKey` (trust on first use).
 */
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { SshTarget } from '../../adapters/ssh/types.js';
import type { Actor } from '../../core/actor.js';
import type { Cipher } from '../../core/crypto.js';
import { BadRequestError, ForbiddenError, isClientSafe, NotFoundError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { nowIso } from '../../core/time.js';
import type { AdminRow, ServerRow } from '../../db/types.js';
import { apiKeyRefusal, holdsPassword, reauthReason } from './servers.reauth.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import {
  credentialPatch, hostKeyFingerprint, inferAuthType, normalizeTags, serverHost, serverName, serverUsername,
  targetPath, toServerView, type ServerInput,
} from './servers.input.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { ServerPatch, ServerRecord, ServersRepository } from './servers.repository.js';
import { resolveTarget, type PresetSources } from './servers.targets.js';
import type { CreateServerBody, ServerView, TestResult } from './servers.schemas.js';

export interface ServersDeps extends PresetSources {
  repo: ServersRepository;
  /** Reads `credential_reauth`. */
  settings: { getBool(key: string): boolean };
  /** The caller's password check (400 when wrong; a failure of the login lockout). */
  requireCurrentPassword(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void>;
  cipher: Cipher;
  audit: AuditService;
  ssh: Pick<SshPool, 'exec' | 'forget'>;
  /** The coalesced reachability record: forgotten with the connections, so the next contact is written. */
  reachability?: { forget(serverId: number): void };
  log: Logger;
}

const TEST_TIMEOUT_MS = 10_000;

export class ServersService {
  constructor(private readonly d: ServersDeps) {}

  async list(): Promise<ServerView[]> {
    return (await this.d.repo.list()).map(toServerView);
  }

  /** The server without credentials — what other features read; 404 when it does not exist. */
  async get(id: number): Promise<ServerRecord> {
    const row = await this.d.repo.findRecord(id);
    if (!row) throw new NotFoundError('Server not found', 'server_not_found');
    return row;
  }

  /** The stored row with its encrypted secrets: for this service only. */
  private async row(id: number): Promise<ServerRow> {
    const row = await this.d.repo.findById(id);
    if (!row) throw new NotFoundError('Server not found', 'server_not_found');
    return row;
  }

  async view(id: number): Promise<ServerView> {
    return toServerView(await this.row(id));
  }

  /**
   * The one way another feature gets a server's credentials: connection details with decrypted
   * secrets, for the code that opens the SSH (or rsync) connection. 404 when the server does
   * not exist, 400 when it has no usable credentials.
   */
  async connectionFor(id: number): Promise<SshTarget> {
    return this.targetFromRow(await this.row(id));
  }

  /**
   * Like `connectionFor` for a row this module already loaded (the SSH probe). Throws BadRequestError (400) when the server has
   * no usable credentials and DecryptionError (500) when ENCRYPTION_KEY no longer opens them.
   */
  targetFromRow(row: ServerRow): Promise<SshTarget> {
    return resolveTarget(this.d, row);
  }

  /** Called by the SSH pool after the first successful connection to an unpinned server. */
  async pinHostKey(id: number, fingerprint: string): Promise<void> {
    if (await this.d.repo.pinHostKey(id, fingerprint)) {
      this.d.log.info({ serverId: id, fingerprint }, 'host key pinned on first use');
    }
  }

  /** `admin` is the caller's admin row; null is the API key. */
  async create(actor: Actor, input: CreateServerBody, admin: AdminRow | null): Promise<ServerView> {
    if (!admin) this.refuseToApiKey(apiKeyRefusal(null, input));
    await this.confirmCredentialChange(actor, admin, reauthReason(null, input), input.current_password, 'POST /api/servers');
    const name = serverName(input.name);
    await this.assertNameFree(name);
    await this.assertPresetsExist(input);
    const creds = credentialPatch(input, this.d.cipher);
    const now = nowIso();
    let row: ServerRow;
    try {
      row = await this.d.repo.create({
        name,
        host: serverHost(input.host),
        port: input.port ?? 22,
        username: serverUsername(input.username),
        auth_type: inferAuthType(input),
        ssh_key_preset_id: creds.ssh_key_preset_id ?? null,
        password_preset_id: creds.password_preset_id ?? null,
        private_key_enc: creds.private_key_enc ?? null,
        password_enc: creds.password_enc ?? null,
        target_path: targetPath(input.target_path),
        tags: JSON.stringify(normalizeTags(input.tags)),
        host_key_fingerprint: hostKeyFingerprint(input.host_key_fingerprint),
        created_at: now,
        updated_at: now,
      });
    } catch (err) {
      throw this.duplicateName(err, name);
    }
    await this.d.audit.record(actor, 'create_server', {
      type: 'server',
      id: row.id,
      detail: `name=${row.name} host=${row.host}:${row.port}`,
    });
    return toServerView(row);
  }

  async update(actor: Actor, id: number, input: ServerInput, admin: AdminRow | null): Promise<ServerView> {
    const current = await this.row(id);
    if (!admin) this.refuseToApiKey(apiKeyRefusal(current, input));
    await this.confirmCredentialChange(actor, admin, reauthReason(current, input), input.current_password, `PUT /api/servers/${id}`);
    const patch: ServerPatch = {};
    if (input.name !== undefined) {
      patch.name = serverName(input.name);
      await this.assertNameFree(patch.name, id);
    }
    if (input.host !== undefined) patch.host = serverHost(input.host);
    if (input.port !== undefined) patch.port = input.port;
    if (input.username !== undefined) patch.username = serverUsername(input.username);
    if (input.auth_type !== undefined) patch.auth_type = input.auth_type;
    if (input.target_path !== undefined) patch.target_path = targetPath(input.target_path);
    if (input.tags !== undefined) patch.tags = JSON.stringify(normalizeTags(input.tags));
    await this.assertPresetsExist(input);
    Object.assign(patch, credentialPatch(input, this.d.cipher));

    if (input.host_key_fingerprint !== undefined) {
      patch.host_key_fingerprint = hostKeyFingerprint(input.host_key_fingerprint);
    } else if ((patch.host ?? current.host) !== current.host || (patch.port ?? current.port) !== current.port) {
      // A new address is another machine with another key: trust it on first use again.
      patch.host_key_fingerprint = null;
    }
    if ((patch.host ?? current.host) !== current.host || (patch.port ?? current.port) !== current.port) {
      // ...and its SSH reachability is not yet known.
      Object.assign(patch, { ssh_last_ok_at: null, ssh_last_error_at: null, ssh_last_error: null, ssh_failing_since: null });
    }
    patch.updated_at = nowIso();

    let row: ServerRow | undefined;
    try {
      row = await this.d.repo.update(id, patch);
    } catch (err) {
      throw this.duplicateName(err, patch.name ?? current.name);
    }
    if (!row) throw new NotFoundError('Server not found', 'server_not_found');
    // Address, credentials or pin may have changed: later operations connect afresh.
    this.forgetConnections(id);
    const changed = Object.keys(patch)
      .filter((k) => k !== 'updated_at')
      .map((k) => k.replace(/_enc$/, ''));
    await this.d.audit.record(actor, 'update_server', { type: 'server', id, detail: `fields=${changed.join(',')}` });
    if (holdsPassword(current) && (row.host !== current.host || row.port !== current.port)) {
      // Where the stored password will be sent from now on, for whoever reviews the audit log.
      await this.d.audit.record(actor, 'server_target_changed', {
        type: 'server',
        id,
        detail: `from=${current.host}:${current.port} to=${row.host}:${row.port} credential=password host_key=${current.host_key_fingerprint && !row.host_key_fingerprint ? 'cleared' : 'kept'}`,
      });
    }
    return toServerView(row);
  }

  private refuseToApiKey(reason: string | null): void {
    if (reason) throw new ForbiddenError(`The API key may not do this (${reason}): it needs an administrator login`, 'api_key_refused');
  }

  private async confirmCredentialChange(actor: Actor, admin: AdminRow | null, reason: string | null, password: string | undefined, endpoint: string): Promise<void> {
    if (!reason || !this.d.settings.getBool('credential_reauth')) return;
    if (!admin) throw new ForbiddenError(`The API key cannot do this while credential_reauth is on (${reason})`, 'api_key_refused');
    if (!password) throw new BadRequestError(`current_password is required for ${reason} (credential_reauth is on)`, 'reauth_required');
    await this.d.requireCurrentPassword(actor, admin, password, endpoint);
  }

  private forgetConnections(id: number): void {
    this.d.ssh.forget(id);
    this.d.reachability?.forget(id);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const row = await this.row(id);
    if (!(await this.d.repo.delete(id))) throw new NotFoundError('Server not found', 'server_not_found');
    this.forgetConnections(id);
    await this.d.audit.record(actor, 'delete_server', { type: 'server', id, detail: `name=${row.name}` });
  }

  async forgetHostKey(actor: Actor, id: number): Promise<ServerView> {
    const before = await this.get(id);
    if (!(await this.d.repo.clearHostKey(id, nowIso()))) throw new NotFoundError('Server not found', 'server_not_found');
    // Pooled connections were verified against the old key; the next one pins afresh.
    this.forgetConnections(id);
    await this.d.audit.record(actor, 'forget_host_key', {
      type: 'server',
      id,
      detail: `fingerprint=${before.host_key_fingerprint ?? 'none'}`,
    });
    return this.view(id);
  }

  /**
   * One SSH round trip (`true`) through the shared pool. Failures are a result, not an error:
   * `{ ok: false, error }` with a message naming the cause (refused, timeout, authentication,
   * or both fingerprints of a changed host key).
   */
  async test(actor: Actor, id: number): Promise<TestResult> {
    const row = await this.row(id);
    const started = performance.now();
    let result: TestResult;
    try {
      const target = await this.targetFromRow(row);
      const r = await this.d.ssh.exec(target, 'true', { timeoutMs: TEST_TIMEOUT_MS });
      if (r.timedOut) throw new BadRequestError(`The test command timed out on ${row.host}:${row.port}`, 'ssh_test_failed');
      if (r.exitCode !== 0) throw new BadRequestError(`The test command exited with ${r.exitCode ?? 'a signal'}`, 'ssh_test_failed');
      result = { ok: true, latency_ms: Math.max(0, Math.round(performance.now() - started)), error: null };
    } catch (err) {
      result = { ok: false, latency_ms: null, error: this.describe(err, id) };
    }
    await this.d.audit.record(actor, 'test_server', {
      type: 'server',
      id,
      detail: result.ok ? `ok latency_ms=${result.latency_ms}` : `failed: ${result.error}`.slice(0, 500),
    });
    return result;
  }

  private describe(err: unknown, id: number): string {
    // Domain and SSH errors are written to be client-facing and secret-free.
    if (isClientSafe(err)) return err.message;
    this.d.log.warn({ serverId: id, err }, 'server test failed');
    return 'SSH test failed with an unexpected error';
  }

  private async assertNameFree(name: string, exceptId?: number): Promise<void> {
    if (await this.d.repo.nameTaken(name, exceptId)) throw new BadRequestError(`A server named "${name}" already exists`, 'server_name_taken');
  }

  private async assertPresetsExist(input: ServerInput): Promise<void> {
    if (input.ssh_key_preset_id != null && !(await this.d.sshKeyPresets.findById(input.ssh_key_preset_id))) {
      throw new BadRequestError(`SSH key preset ${input.ssh_key_preset_id} does not exist`, 'ssh_key_preset_not_found');
    }
    if (input.password_preset_id != null && !(await this.d.passwordPresets.findById(input.password_preset_id))) {
      throw new BadRequestError(`Password preset ${input.password_preset_id} does not exist`, 'preset_not_found');
    }
  }

  private duplicateName(err: unknown, name: string): unknown {
    return isUniqueViolation(err) ? new BadRequestError(`A server named "${name}" already exists`, 'server_name_taken') : err;
  }
}
