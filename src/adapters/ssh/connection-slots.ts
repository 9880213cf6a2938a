import { createHash } from 'node:crypto';
import type { Client } from 'ssh2';
import { openConnection } from './connection.js';
import { SshConnectionError, connectionClosedError, type SshEndpoint } from './errors.js';
import { normalizeFingerprint } from './host-key.js';
import type { HostKeyInfo, SshLogger, SshPoolStats, SshTarget } from './types.js';

export interface Conn {
  entry: Entry;
  ep: SshEndpoint;
  client: Client | null;
  ready: Promise<void>;
  hostKey: HostKeyInfo | null;
  /** The pin this connection was verified against (null = TOFU). */
  pin: string | null;
  /** Channel slots in use, counted from the moment an operation picks this connection. */
  channels: number;
  limit: number;
  closed: boolean;
  /** Serves no new operations (its host key no longer matches the pin); closes once drained. */
  retiring: boolean;
  idleTimer?: NodeJS.Timeout;
  /** Abort callbacks of operations running on it, failed when the connection drops. */
  inflight: Set<(err: Error) => void>;
}

interface Entry {
  conns: Conn[];
  waiters: Array<() => void>;
  hostKey: HostKeyInfo | null;
  pinNotified: boolean;
}

export interface ConnectionSlotsOptions {
  idleMs: number;
  maxPerHost: number;
  maxChannels: number;
  connectTimeoutMs: number;
  keepaliveIntervalMs: number;
  onHostKeyPinned?: (serverId: number, fingerprint: string) => Promise<void> | void;
  logger?: SshLogger;
}

/**
 * The bookkeeping half of the pool: which connections exist per target, how many channels
 * each carries, who waits for a slot, and when a connection goes idle, drops or retires.
 */
export class ConnectionSlots {
  private readonly entries = new Map<string, Entry>();
  private connectsTotal = 0;
  private closing = false;

  constructor(private readonly o: ConnectionSlotsOptions) {}

  get isClosing(): boolean {
    return this.closing;
  }

  /** Reserve one channel slot on a ready connection to `target`, connecting or queueing as needed. */
  async acquire(target: SshTarget): Promise<Conn> {
    const entry = this.entryFor(target);
    const pin = pinOf(target);
    for (;;) {
      if (this.closing) throw new SshConnectionError('closed', 'SSH connection pool is shut down');
      for (const c of [...entry.conns]) {
        if (!c.retiring && !compatible(c, pin)) {
          c.retiring = true;
          if (c.channels === 0) this.closeConn(c);
        }
      }
      let conn = entry.conns.find((c) => !c.closed && !c.retiring && c.channels < c.limit);
      if (!conn && entry.conns.length < this.o.maxPerHost) conn = this.startConn(entry, target, pin);
      if (!conn) {
        await new Promise<void>((resolve) => entry.waiters.push(resolve));
        continue;
      }
      conn.channels++;
      clearTimeout(conn.idleTimer);
      try {
        await conn.ready;
      } catch (err) {
        conn.channels--;
        throw err;
      }
      if (!conn.closed) return conn;
      this.release(conn);
    }
  }

  release(conn: Conn): void {
    conn.channels = Math.max(0, conn.channels - 1);
    conn.entry.waiters.shift()?.();
    if (conn.channels > 0 || conn.closed || !conn.client) return;
    if (conn.retiring) {
      this.closeConn(conn);
      return;
    }
    clearTimeout(conn.idleTimer);
    conn.idleTimer = setTimeout(() => {
      if (conn.channels === 0) this.closeConn(conn);
    }, this.o.idleMs);
    conn.idleTimer.unref();
  }

  /** It is gone or unusable: fail what runs on it; the next operation reconnects. */
  dropConn(conn: Conn): void {
    const wasClosed = conn.closed;
    this.removeConn(conn);
    if (!wasClosed) conn.client?.destroy();
    for (const abort of [...conn.inflight]) abort(connectionClosedError(conn.ep));
    conn.inflight.clear();
  }

  /**
   * Forget one server: its connections retire (running operations finish, nothing new starts on
   * them) and its first-use pin state resets, so a deleted server holds nothing open and a server
   * whose host key was forgotten gets pinned again on its next connection.
   */
  forget(serverId: number): void {
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(`${serverId}:`)) continue;
      this.entries.delete(key);
      for (const c of [...entry.conns]) {
        c.retiring = true;
        if (c.channels === 0) this.closeConn(c);
      }
    }
  }

  /** A live connection to `target` whose host key satisfies the target's pin. */
  findVerified(target: SshTarget): Conn | undefined {
    const pin = pinOf(target);
    return this.entries.get(poolKey(target))?.conns.find((c) => !c.closed && c.hostKey && compatible(c, pin));
  }

  lastHostKey(target: SshTarget): HostKeyInfo | null {
    return this.entries.get(poolKey(target))?.hostKey ?? null;
  }

  stats(): SshPoolStats {
    const s: SshPoolStats = { connections: 0, connectsTotal: this.connectsTotal, activeChannels: 0, queued: 0 };
    for (const e of this.entries.values()) {
      s.connections += e.conns.length;
      s.queued += e.waiters.length;
      for (const c of e.conns) s.activeChannels += c.channels;
    }
    return s;
  }

  async closeAll(): Promise<void> {
    this.closing = true;
    const closing: Promise<void>[] = [];
    for (const entry of this.entries.values()) {
      for (const conn of [...entry.conns]) {
        if (conn.client) closing.push(waitForClose(conn.client, 2000));
        this.closeConn(conn);
      }
      wakeAll(entry);
    }
    await Promise.all(closing);
  }

  private entryFor(target: SshTarget): Entry {
    const key = poolKey(target);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { conns: [], waiters: [], hostKey: null, pinNotified: false };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private startConn(entry: Entry, target: SshTarget, pin: string | null): Conn {
    const ep = { host: target.host, port: target.port, username: target.username };
    const conn: Conn = {
      entry, ep, client: null, ready: Promise.resolve(), hostKey: null, pin, channels: 0,
      limit: this.o.maxChannels, closed: false, retiring: false, inflight: new Set(),
    };
    const log = { serverId: target.id, ...ep };
    const { connectTimeoutMs, keepaliveIntervalMs } = this.o;
    conn.ready = openConnection(target, { connectTimeoutMs, keepaliveIntervalMs })
      .then(async ({ client, hostKey }) => {
        this.connectsTotal++;
        conn.client = client;
        conn.hostKey = hostKey;
        entry.hostKey = hostKey;
        client.on('error', (err) => this.o.logger?.warn({ ...log, err: err.message }, 'ssh connection error'));
        client.once('close', () => this.dropConn(conn));
        this.o.logger?.debug({ ...log, fingerprint: hostKey.fingerprint }, 'ssh connected');
        if (this.closing || conn.closed) {
          this.closeConn(conn);
          throw connectionClosedError(ep);
        }
        if (!pin && !entry.pinNotified && this.o.onHostKeyPinned) {
          entry.pinNotified = true;
          try {
            await this.o.onHostKeyPinned(target.id, hostKey.fingerprint);
          } catch (err) {
            // The connection is fine; we simply try to record the pin again next time.
            entry.pinNotified = false;
            this.o.logger?.warn({ ...log, err: (err as Error).message }, 'storing the trusted host key failed');
          }
        }
      })
      .catch((err: unknown) => {
        this.removeConn(conn);
        this.o.logger?.info({ ...log, err: (err as Error).message }, 'ssh connect failed');
        throw err;
      });
    // Failures reach every caller awaiting `ready`; this only keeps an unawaited one from being "unhandled".
    conn.ready.catch(() => {});
    entry.conns.push(conn);
    return conn;
  }

  /** We are done with it: say goodbye to the server. */
  private closeConn(conn: Conn): void {
    if (conn.closed) return;
    this.removeConn(conn);
    conn.client?.end();
  }

  private removeConn(conn: Conn): void {
    conn.closed = true;
    clearTimeout(conn.idleTimer);
    const list = conn.entry.conns;
    const i = list.indexOf(conn);
    if (i >= 0) list.splice(i, 1);
    // A slot for a new connection opened up: let every waiter look again.
    wakeAll(conn.entry);
  }
}

/** Server id plus a digest of everything that makes a connection different (credentials rotate). */
function poolKey(t: SshTarget): string {
  const h = createHash('sha256').update(JSON.stringify([t.host, t.port, t.username, t.auth])).digest('base64url');
  return `${t.id}:${h}`;
}

function pinOf(t: SshTarget): string | null {
  return t.hostKeyFingerprint ? normalizeFingerprint(t.hostKeyFingerprint) : null;
}

function compatible(c: Conn, pin: string | null): boolean {
  return pin === null || c.pin === pin || c.hostKey?.fingerprint === pin;
}

function wakeAll(entry: Entry): void {
  for (const w of entry.waiters.splice(0)) w();
}

function waitForClose(client: Client, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      client.destroy();
      resolve();
    }, ms);
    t.unref();
    client.once('close', () => {
      clearTimeout(t);
      resolve();
    });
  });
}
