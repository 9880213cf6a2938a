/**
 * Keep-alive connections for the guarded request: one undici agent per checked address, reused
 * by later requests to the same address, so a channel that delivers often does not pay a new
 * TCP and TLS handshake for every message. The address is still resolved and checked on every
 * request; an agent is only ever used for the address it was pinned to. Idle agents are closed
 * after `idleMs`, and at most `max` are kept (the oldest is closed first).
 */
import type { Agent } from 'undici';
import { pinnedAgent } from './pinned-target.js';

export class PinnedAgents {
  private readonly agents = new Map<string, { agent: Promise<Agent>; timer: NodeJS.Timeout }>();

  constructor(
    private readonly o: { connectTimeoutMs: number; idleMs?: number; max?: number } = { connectTimeoutMs: 10_000 },
  ) {}

  /** The agent for `address`, kept open for the next request to it. */
  get(address: string): Promise<Agent> {
    const idleMs = this.o.idleMs ?? 30_000;
    const held = this.agents.get(address);
    if (held) {
      // Refreshed on use: Map order then runs from the least to the most recently used.
      this.agents.delete(address);
      held.timer.refresh();
      this.agents.set(address, held);
      return held.agent;
    }
    const agent = pinnedAgent(address, this.o.connectTimeoutMs, { keepAlive: true });
    const timer = setTimeout(() => this.drop(address), idleMs);
    timer.unref();
    this.agents.set(address, { agent, timer });
    if (this.agents.size > (this.o.max ?? 32)) this.drop(this.agents.keys().next().value as string);
    return agent;
  }

  /** Forgets the address's agent after a failed request: the next one opens afresh. */
  drop(address: string): void {
    const held = this.agents.get(address);
    if (!held) return;
    this.agents.delete(address);
    clearTimeout(held.timer);
    void held.agent.then((a) => a.close()).catch(() => {});
  }

  async close(): Promise<void> {
    for (const address of [...this.agents.keys()]) this.drop(address);
  }
}
