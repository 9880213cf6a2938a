/**
 * A server's SSH reachability, written from the outcome of every contact the SSH pool makes.
 * A push to 1,000 servers makes thousands of contacts: writes are coalesced to at most one per
 * server every `minIntervalMs`, except that a change of state (ok ↔ failing, or another error
 * class) is written at once, so the stored state is never more than that interval behind and a
 * flip is never late. Writes run in the background and never slow or fail the contact itself.
 */
import type { SshContact } from '../../adapters/ssh/types.js';
import type { Logger } from '../../core/logger.js';
import type { ServersRepository } from './servers.repository.js';

/** What was last written for a server, as this process knows it. */
interface Written {
  state: string; // 'ok' or the error class
  at: number;
}

export interface SshReachabilityDeps {
  repo: Pick<ServersRepository, 'recordSshOk' | 'recordSshFailure'>;
  log: Logger;
  now?: () => number;
  /** Default 60 s. */
  minIntervalMs?: number;
}

/** Servers remembered at most; beyond that the oldest entry goes (it only costs one extra write). */
const MAX_REMEMBERED = 50_000;

export class SshReachability {
  private readonly written = new Map<number, Written>();
  private readonly pending = new Set<Promise<void>>();
  private readonly now: () => number;
  private readonly minIntervalMs: number;

  constructor(private readonly d: SshReachabilityDeps) {
    this.now = d.now ?? Date.now;
    this.minIntervalMs = d.minIntervalMs ?? 60_000;
  }

  /** The pool's `onContact`: cheap, synchronous, never throws. */
  record(serverId: number, outcome: SshContact): void {
    const state = outcome.ok ? 'ok' : outcome.kind;
    const now = this.now();
    const last = this.written.get(serverId);
    if (last && last.state === state && now - last.at < this.minIntervalMs) return;
    this.written.delete(serverId);
    this.written.set(serverId, { state, at: now });
    if (this.written.size > MAX_REMEMBERED) this.written.delete(this.written.keys().next().value as number);
    const at = new Date(now).toISOString();
    const write = (outcome.ok ? this.d.repo.recordSshOk(serverId, at) : this.d.repo.recordSshFailure(serverId, at, state))
      .catch((err: unknown) => {
        // Written again on the next contact.
        this.written.delete(serverId);
        this.d.log.warn({ serverId, err }, 'recording SSH reachability failed');
      })
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** A server was deleted or moved: its next contact is written whatever came before. */
  forget(serverId: number): void {
    this.written.delete(serverId);
  }

  /** Resolves when every write started so far has settled (shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
