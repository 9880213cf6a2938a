/**
 * Claims on remote directories: while a push batch or a retry job writes a server's target, no
 * other batch or job may write that target, nor a directory nested in it or containing it (a
 * push into /srv writes /srv/app; a full push into /srv deletes in it). A batch claims all its
 * servers' targets when it is accepted, so a second push is told at once which servers are busy;
 * each claim goes when that server's transfer ends. Claims hold across worker processes (they
 * are rows) and carry the owner's lease: a crashed process's claims expire with its leases.
 */
import { createHash } from 'node:crypto';
import { normaliseTargetPath, targetsOverlap } from '../../core/target-path.js';
import type { PushTargetClaimRow } from '../../db/types.js';
import { leaseUntil } from '../../platform/leases.js';
import type { TargetClaimsRepository } from './target-claims.repository.js';

/** The stable marker of a server refused because its target is busy (`push_results.error_code`). */
export const TARGET_BUSY = 'target_busy';

export type ClaimHolder = { kind: 'batch'; id: string } | { kind: 'retry_job'; id: number };

export interface TargetRequest {
  serverId: number;
  /** The effective remote directory, as the transfer will use it. */
  targetPath: string;
}

function holderText(kind: string, id: string): string {
  return kind === 'retry_job' ? `retry job ${id}` : `batch ${id}`;
}

/** "target /srv/app is being written by batch 1a2b" or, for nesting, names the other directory too. */
function busyMessage(mine: string, live: Pick<PushTargetClaimRow, 'target_path' | 'holder_kind' | 'holder_id'>): string {
  const by = holderText(live.holder_kind, live.holder_id);
  return live.target_path === mine
    ? `target ${mine} is being written by ${by}`
    : `target ${mine} overlaps ${live.target_path}, which ${by} is writing`;
}

export class TargetClaims {
  constructor(
    private readonly d: {
      repo: TargetClaimsRepository;
      /** This process's lease identity. */
      owner: string;
      now?: () => number;
    },
  ) {}

  /**
   * Claims each server's target for `holder`; returns the busy message of every server refused
   * (by server id). The others are claimed and must be released when their transfer ends.
   */
  async claim(holder: ClaimHolder, targets: TargetRequest[]): Promise<Map<number, string>> {
    const now = this.d.now?.() ?? Date.now();
    const claims = targets.map((t) => {
      const target = normaliseTargetPath(t.targetPath);
      return {
        server_id: t.serverId,
        target_hash: createHash('sha256').update(target).digest('hex'),
        target_path: target,
        holder_kind: holder.kind,
        holder_id: String(holder.id),
        lease_owner: this.d.owner,
        lease_expires_at: leaseUntil(now),
      };
    });
    const refused = await this.d.repo.claimAll(claims, new Date(now).toISOString(), (c, live) => targetsOverlap(c.target_path, live.target_path));
    const out = new Map<number, string>();
    for (const c of claims) {
      const live = refused.get(c.server_id);
      if (live) out.set(c.server_id, busyMessage(c.target_path, live));
    }
    return out;
  }

  /** One server's claim: the busy message, or null when claimed. */
  async claimOne(holder: ClaimHolder, target: TargetRequest): Promise<string | null> {
    return (await this.claim(holder, [target])).get(target.serverId) ?? null;
  }

  release(holder: ClaimHolder, serverId: number): Promise<void> {
    return this.d.repo.release(holder.kind, String(holder.id), serverId);
  }

  releaseAll(holder: ClaimHolder): Promise<void> {
    return this.d.repo.releaseAll(holder.kind, String(holder.id));
  }

  /** Extends the lease of every claim this process holds. */
  renew(): Promise<void> {
    return this.d.repo.renew(this.d.owner, leaseUntil(this.d.now?.() ?? Date.now()));
  }

  /** Drops the claims of processes that stopped renewing them. */
  releaseExpired(now = Date.now()): Promise<number> {
    return this.d.repo.releaseExpired(new Date(now).toISOString());
  }

  /** What is claimed now (tests and diagnostics). */
  list(): Promise<PushTargetClaimRow[]> {
    return this.d.repo.list();
  }
}
