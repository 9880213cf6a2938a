import type { SFTPWrapper } from 'ssh2';
import { ConnectionSlots, type Conn } from './connection-slots.js';
import { ExecError, SshConnectionError, connectionClosedError, mapConnectError } from './errors.js';
import { ChannelOpenError, describeCommand, runExec } from './exec-channel.js';
import { endSftp, uploadViaTemp } from './sftp.js';
import type {
  ExecOptions, ExecResult, HostKeyInfo, SftpUploadOptions, SshContact, SshPoolOptions, SshPoolStats, SshTarget, UploadSource,
} from './types.js';

/** Retries after a channel could not be opened (nothing ran remotely, so it is safe). */
const MAX_OPEN_RETRIES = 3;

/**
 * A pool of authenticated ssh2 connections keyed by server and credentials. Connecting costs
 * a TCP + key-exchange + auth round trip (tens of ms); a channel on an open connection costs
 * one round trip, which is the whole point of the pool. Create one per process and `closeAll()`
 * it on shutdown.
 */
export class SshPool {
  private readonly slots: ConnectionSlots;
  private readonly onContact: SshPoolOptions['onContact'];

  constructor(opts: SshPoolOptions = {}) {
    this.onContact = opts.onContact;
    this.slots = new ConnectionSlots({
      idleMs: opts.idleMs ?? 60_000,
      maxPerHost: Math.max(1, opts.maxPerHost ?? 4),
      maxChannels: Math.max(1, opts.maxChannelsPerConnection ?? 10),
      connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
      keepaliveIntervalMs: opts.keepaliveIntervalMs ?? 15_000,
      onHostKeyPinned: opts.onHostKeyPinned,
      logger: opts.logger,
    });
  }

  /**
   * Run a command: a string is a `sh -c` script, an array is argv (each element quoted).
   * Never throws for a non-zero exit or a timeout (see `execOrThrow`); throws
   * SshConnectionError when the host cannot be reached or the connection drops mid-run.
   */
  async exec(target: SshTarget, command: string | string[], opts: ExecOptions = {}): Promise<ExecResult> {
    if (Array.isArray(command) && command.length === 0) throw new TypeError('exec: empty argv');
    return this.withChannel(target, (conn) =>
      runExec(conn.client!, command, opts, (abort) => {
        conn.inflight.add(abort);
        return () => conn.inflight.delete(abort);
      }),
    );
  }

  /** Like `exec`, but a non-zero exit or a timeout throws ExecError. */
  async execOrThrow(target: SshTarget, command: string | string[], opts: ExecOptions = {}): Promise<ExecResult> {
    const r = await this.exec(target, command, opts);
    if (r.timedOut || r.exitCode !== 0) {
      throw new ExecError({
        command: describeCommand(command),
        exitCode: r.exitCode,
        stderr: r.stderr,
        host: target.name || target.host,
        timedOut: r.timedOut,
      });
    }
    return r;
  }

  /**
   * An SFTP session on the pooled connection. It holds one channel slot until it closes:
   * the caller must `end()` it (or use `withSftp`).
   */
  async sftp(target: SshTarget): Promise<SFTPWrapper> {
    for (let attempt = 0; ; attempt++) {
      const conn = await this.acquire(target);
      let sftp: SFTPWrapper;
      try {
        sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
          try {
            conn.client!.sftp((err, s) => (err ? reject(new ChannelOpenError(err)) : resolve(s)));
          } catch (err) {
            reject(new ChannelOpenError(err as Error));
          }
        });
      } catch (err) {
        this.slots.release(conn);
        if (this.shouldRetry(err, conn, attempt)) continue;
        throw this.failed(target, this.operationError(err, conn));
      }
      let released = false;
      const releaseOnce = (): void => {
        if (released) return;
        released = true;
        conn.inflight.delete(releaseOnce);
        this.slots.release(conn);
      };
      conn.inflight.add(releaseOnce);
      sftp.once('close', releaseOnce);
      return sftp;
    }
  }

  /** Open an SFTP session, run `fn`, and always end the session. */
  async withSftp<T>(target: SshTarget, fn: (sftp: SFTPWrapper) => Promise<T>): Promise<T> {
    const sftp = await this.sftp(target);
    try {
      return await fn(sftp);
    } finally {
      await endSftp(sftp);
    }
  }

  /** Stream `source` into `remotePath` (via a temporary name, then a rename); resolves with the bytes written, removes the partial file on failure. */
  sftpUpload(target: SshTarget, source: UploadSource, remotePath: string, opts: SftpUploadOptions = {}): Promise<number> {
    return this.withSftp(target, (sftp) => uploadViaTemp(sftp, source, remotePath, opts));
  }

  /** Make sure a verified connection exists and return the host key it presented. */
  async connect(target: SshTarget): Promise<HostKeyInfo> {
    const live = this.slots.findVerified(target);
    if (live) {
      this.report(target, { ok: true });
      return live.hostKey!;
    }
    const conn = await this.acquire(target);
    this.slots.release(conn);
    return conn.hostKey!;
  }

  /** The raw host key (for a known_hosts file, e.g. for rsync over OpenSSH), verified against the pin. */
  fetchHostKey(target: SshTarget): Promise<HostKeyInfo> {
    return this.connect(target);
  }

  /** Fingerprint the target presented on the latest connection of this pool, if any. */
  lastFingerprint(target: SshTarget): string | null {
    return this.slots.lastHostKey(target)?.fingerprint ?? null;
  }

  /** Close a server's connections and reset its trust-on-first-use state (delete, forget-host-key). */
  forget(serverId: number): void {
    this.slots.forget(serverId);
  }

  stats(): SshPoolStats {
    return this.slots.stats();
  }

  /** Close every connection (graceful shutdown); the pool refuses new work afterwards. */
  closeAll(): Promise<void> {
    return this.slots.closeAll();
  }

  private async withChannel<T>(target: SshTarget, op: (conn: Conn) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const conn = await this.acquire(target);
      try {
        return await op(conn);
      } catch (err) {
        if (this.shouldRetry(err, conn, attempt)) continue;
        throw this.failed(target, this.operationError(err, conn));
      } finally {
        this.slots.release(conn);
      }
    }
  }

  /** A channel slot on a ready connection; the contact's outcome is reported either way. */
  private async acquire(target: SshTarget): Promise<Conn> {
    let conn: Conn;
    try {
      conn = await this.slots.acquire(target);
    } catch (err) {
      throw this.failed(target, err);
    }
    this.report(target, { ok: true });
    return conn;
  }

  /** An operation failed: a connection-level failure is reported as the contact's outcome. */
  private failed<E>(target: SshTarget, err: E): E {
    if (err instanceof SshConnectionError && !this.slots.isClosing) this.report(target, { ok: false, kind: err.kind });
    return err;
  }

  private report(target: SshTarget, outcome: SshContact): void {
    if (!this.onContact) return;
    try {
      this.onContact(target.id, outcome);
    } catch {
      // Reachability bookkeeping never fails the operation it observes.
    }
  }

  private shouldRetry(err: unknown, conn: Conn, attempt: number): boolean {
    if (!(err instanceof ChannelOpenError) || attempt >= MAX_OPEN_RETRIES || this.slots.isClosing) return false;
    if (err.sessionLimit && !conn.closed) {
      // The server allows fewer sessions than we assumed; remember it for this connection.
      conn.limit = Math.max(1, conn.channels - 1);
    } else {
      // "Not connected" / "No response": the connection died between acquire and open.
      this.slots.dropConn(conn);
    }
    return true;
  }

  private operationError(err: unknown, conn: Conn): Error {
    if (err instanceof SshConnectionError) return err;
    if (err instanceof ChannelOpenError) return mapConnectError(err.original, conn.ep);
    if (err instanceof Error && /Channel closed without exit status/.test(err.message)) {
      return connectionClosedError(conn.ep, err);
    }
    return err instanceof Error ? err : new Error(String(err));
  }
}
