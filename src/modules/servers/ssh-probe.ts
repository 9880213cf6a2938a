/**
 * The optional SSH probe (setting `ssh_probe_interval`, seconds; 0, the default, switches it
 * off): every interval it opens (or reuses) a pooled connection to each server that has no recent
 * agent heartbeat and no SSH contact within the interval, so a fleet without agents still shows
 * which servers answer. The pool reports each outcome to the reachability record like any other
 * contact. Runs only in the process that owns background work, a few connections at a time.
 */
import type { SshTarget } from '../../adapters/ssh/types.js';
import type { Logger } from '../../core/logger.js';
import { mapLimit } from '../../core/map-limit.js';
import { every, type Periodic } from '../../core/periodic.js';
import type { ServerRow } from '../../db/types.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { ServersRepository } from './servers.repository.js';

export const SSH_PROBE_SETTING = 'ssh_probe_interval';
/** How often the loop looks at the setting; also the smallest interval the setting accepts. */
export const PROBE_TICK_MS = 30_000;
const CONCURRENCY = 8;
/** Servers probed per run at most; the least recently contacted go first, the rest next run. */
const MAX_PER_RUN = 2_000;
/** A heartbeat younger than this means the agent already speaks for the server. */
const DEFAULT_HEARTBEAT_TIMEOUT_S = 90;

export interface SshProbeDeps {
  repo: Pick<ServersRepository, 'probeCandidates'>;
  targetFromRow(row: ServerRow): Promise<SshTarget>;
  ssh: { connect(target: SshTarget): Promise<unknown> };
  settings: Pick<RuntimeSettings, 'getInt'>;
  log: Logger;
  now?: () => number;
}

export class SshProbe {
  private loop: Periodic | null = null;
  private lastRunAt = 0;
  private readonly now: () => number;

  constructor(private readonly d: SshProbeDeps) {
    this.now = d.now ?? Date.now;
  }

  intervalSeconds(): number {
    const v = this.d.settings.getInt(SSH_PROBE_SETTING, 0);
    return v > 0 ? Math.max(PROBE_TICK_MS / 1000, v) : 0;
  }

  start(): void {
    this.loop ??= every(PROBE_TICK_MS, () => this.tick(), (err) => this.d.log.warn({ err }, 'SSH probe failed'));
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = null;
  }

  private async tick(): Promise<void> {
    const interval = this.intervalSeconds();
    if (interval === 0 || this.now() - this.lastRunAt < interval * 1000) return;
    await this.runOnce();
  }

  /** One round: contacts every due server; returns how many were contacted. */
  async runOnce(): Promise<number> {
    const interval = this.intervalSeconds();
    if (interval === 0) return 0;
    const now = this.now();
    this.lastRunAt = now;
    const heartbeatS = this.d.settings.getInt('heartbeat_timeout', DEFAULT_HEARTBEAT_TIMEOUT_S);
    const rows = await this.d.repo.probeCandidates(
      new Date(now - heartbeatS * 1000).toISOString(),
      // A little slack, so a server contacted by the previous round is due again in this one.
      new Date(now - interval * 1000 + PROBE_TICK_MS / 2).toISOString(),
      MAX_PER_RUN,
    );
    let contacted = 0;
    await mapLimit(rows, CONCURRENCY, async (row) => {
      let target: SshTarget;
      try {
        target = await this.d.targetFromRow(row);
      } catch {
        return; // no usable credentials: nothing to probe with
      }
      contacted++;
      // The outcome is recorded by the pool; a failure here is the expected news, not an error.
      await this.d.ssh.connect(target).catch(() => undefined);
    });
    if (contacted) this.d.log.debug({ contacted }, 'SSH probe round');
    return contacted;
  }
}
