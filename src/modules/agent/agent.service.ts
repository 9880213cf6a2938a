/**
 * Agent heartbeats and tokens. The hot path (`authenticate` + `ingest`) does no database read
 * for a known token: the token is resolved from memory, the active alerts from the cache, and
 * the heartbeat time is buffered by the writer; only an alert crossing writes at once.
 */
import type { Cache, Unsubscribe } from '../../adapters/cache/cache.js';
import type { Actor } from '../../core/actor.js';
import { UnauthorizedError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { IsoClock } from '../../core/time.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { AlertEngine, AlertType, Reading } from '../alerts/index.js';
import type { AgentServerStore, ServersService } from '../servers/index.js';
import { AgentTokenCache, HeaderHashes, TOKENS_CHANNEL, hashAgentToken, newAgentToken, type AgentServer } from './agent-tokens.js';
import type { HeartbeatPoints } from './heartbeat-points.js';
import { HeartbeatWriter } from './heartbeat-writer.js';
import type { HeartbeatBody } from './agent.schemas.js';
import type { Metrics } from '../../platform/metrics/metrics.js';

export interface AgentServiceDeps {
  /** The servers module's agent columns (only that module writes `servers`). */
  repo: AgentServerStore;
  /** Where each reading is kept for the monitoring page. */
  points?: Pick<HeartbeatPoints, 'record' | 'start' | 'stop'>;
  cache: Cache;
  engine: AlertEngine;
  servers: Pick<ServersService, 'get'>;
  audit: AuditService;
  log: Logger;
  now: () => number;
  /** Counts accepted heartbeats. */
  metrics?: Pick<Metrics, 'heartbeat'>;
}

export class AgentService {
  readonly tokens: AgentTokenCache;
  readonly writer: HeartbeatWriter;
  private readonly headerHashes = new HeaderHashes();
  private unsubscribe: Unsubscribe | null = null;
  private lastCacheErrorAt = 0;
  /** Heartbeat times as ISO text, the part up to the second made once per second. */
  private readonly iso = new IsoClock();

  constructor(private readonly d: AgentServiceDeps) {
    this.tokens = new AgentTokenCache((hash) => d.repo.findByTokenHash(hash));
    this.writer = new HeartbeatWriter({
      repo: d.repo,
      log: d.log,
      onMissing: (ids) => this.tokens.evictServers(ids),
    });
  }

  async start(): Promise<void> {
    this.writer.start();
    this.d.points?.start();
    try {
      this.unsubscribe = await this.d.cache.subscribe(TOKENS_CHANNEL, (msg) => {
        const id = Number((JSON.parse(msg) as { server_id?: unknown }).server_id);
        if (Number.isInteger(id)) this.tokens.evictServers([id]);
      });
    } catch (err) {
      // Without the channel a rotated token stays valid on other workers until its cache entry expires (1 min).
      this.d.log.warn({ err }, 'agent token invalidation channel unavailable');
    }
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.().catch(() => {});
    this.unsubscribe = null;
    await this.writer.stop();
    await this.d.points?.stop();
  }

  /** The server whose token this is; 401 for anything else. */
  async authenticate(header: string | undefined): Promise<AgentServer> {
    const hash = this.headerHashes.of(header);
    const server = hash ? await this.tokens.resolve(hash) : null;
    if (!server) throw new UnauthorizedError('Invalid agent token', 'agent_token_invalid');
    return server;
  }

  /**
   * `authenticate` from memory, without a promise, for a token resolved within the cache's
   * minute (a rotation evicts it at once): the server, or undefined when it has to be looked up
   * (or refused) by `authenticate`. Thousands of heartbeats a second come this way.
   */
  authenticateKnown(header: string | undefined): AgentServer | undefined {
    const hash = this.headerHashes.of(header);
    return hash ? this.tokens.peek(hash) : undefined;
  }

  /**
   * Records one heartbeat: its reading, its time, and the alerts it opens or recovers. Undefined
   * when nothing had to be awaited (the common case with the in-process cache: no status change,
   * no crossing), else the promise of what is still being written.
   */
  ingest(server: AgentServer, reading: Reading & Pick<HeartbeatBody, 'load' | 'version'>): Promise<void> | undefined {
    const now = this.d.now();
    const at = this.iso.at(now);
    this.d.metrics?.heartbeat();
    this.d.points?.record({
      server_id: server.id,
      at,
      cpu: reading.cpu,
      mem: reading.mem,
      disk: reading.disk,
      load: reading.load ?? null,
      // Whole seconds toward zero: `ts` is the agent's clock floored to a second, so an agent in
      // sync lands in (-1, 0] and shows 0, not -1. Clamped: ts may be up to 1e11, the column is int.
      drift_s: Math.max(-1e9, Math.min(1e9, Math.trunc(reading.ts - now / 1000) || 0)),
      version: reading.version || null,
    });
    let active: Set<AlertType> | null | undefined;
    try {
      active = this.d.engine.activeTypesNow(server.id);
    } catch (err) {
      this.cacheError(err);
      active = null;
    }
    if (active === undefined) return this.settleAfterRead(server, reading, at, now);
    return this.settle(server, reading, at, now, active);
  }

  /** `settle` once the active alert types are read from a networked cache. */
  private async settleAfterRead(server: AgentServer, reading: Reading, at: string, now: number): Promise<void> {
    let active: Set<AlertType> | null = null;
    try {
      active = await this.d.engine.activeTypes(server.id);
    } catch (err) {
      this.cacheError(err);
    }
    await this.settle(server, reading, at, now, active);
  }

  /** The heartbeat time (written at once on a status change) and the alert crossings; undefined when nothing is pending. */
  private settle(server: AgentServer, reading: Reading, at: string, now: number, active: Set<AlertType> | null): Promise<void> | undefined {
    const written = this.writer.record(server, at, server.status !== 'online' || active?.has('offline') === true);
    if (written !== undefined) return written.then(() => this.evaluate(server, reading, now, active));
    return this.evaluate(server, reading, now, active);
  }

  private evaluate(server: AgentServer, reading: Reading, now: number, active: Set<AlertType> | null): Promise<void> | undefined {
    const crossed = active ? this.d.engine.evaluate(server, reading, active, now) : undefined;
    return crossed?.then(() => undefined);
  }

  /** Writes buffered heartbeat times now (the offline detector calls this before it reads them). */
  flushHeartbeats(): Promise<void> {
    return this.writer.flush();
  }

  /** A new token for the server (shown once); the previous one stops working on every worker. */
  async rotateToken(actor: Actor, serverId: number): Promise<{ server_id: number; agent_token: string }> {
    await this.d.servers.get(serverId);
    const { token } = await this.issueToken(serverId);
    await this.d.audit.record(actor, 'rotate_agent_token', { type: 'server', id: serverId });
    return { server_id: serverId, agent_token: token };
  }

  /** Stores a new token's hash; returns the previous hash so a failed install can put it back. */
  async issueToken(serverId: number): Promise<{ token: string; hash: string; previous: string | null }> {
    const previous = (await this.d.repo.tokenHash(serverId)) ?? null;
    const token = newAgentToken();
    const hash = hashAgentToken(token);
    await this.d.repo.setTokenHash(serverId, hash);
    await this.invalidate(serverId);
    return { token, hash, previous };
  }

  /** Puts back `previous` unless the token was rotated again meanwhile. */
  async restoreToken(serverId: number, issuedHash: string, previous: string | null): Promise<void> {
    if (await this.d.repo.setTokenHash(serverId, previous, issuedHash)) await this.invalidate(serverId);
  }

  setStatus(ids: number[], status: string): void {
    this.tokens.setStatus(ids, status);
  }

  private async invalidate(serverId: number): Promise<void> {
    this.tokens.evictServers([serverId]);
    try {
      await this.d.cache.publish(TOKENS_CHANNEL, JSON.stringify({ server_id: serverId }));
    } catch (err) {
      this.d.log.warn({ err, serverId }, 'could not announce an agent token rotation to other workers');
    }
  }

  private cacheError(err: unknown): void {
    const now = Date.now();
    if (now - this.lastCacheErrorAt < 30_000) return;
    this.lastCacheErrorAt = now;
    this.d.log.warn({ err }, 'cache unavailable; heartbeat recorded without alert checks');
  }
}
