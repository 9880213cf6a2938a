/**
 * The mixed load, as loops that run until `stop()`: agent heartbeats (every agent once per
 * interval, each with its own token), pushes to the sshd targets one batch at a time (async and
 * synchronous in turn), an administrator browsing the list pages, settings changes read back,
 * and whole sign-in sessions (login, me, refresh, logout). Every answer lands in the client's tally.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SoakClient } from './client.js';
import type { PushFleet } from './fleet.js';
import { SOAK_ADMIN } from './service.js';

export interface LoadOptions {
  agentTokens: string[];
  heartbeatIntervalS: number;
  pushIntervalS: number;
  fleet: PushFleet;
}

/** Heartbeats waiting for an answer at most; beyond it a due heartbeat is counted as late, not sent. */
const MAX_IN_FLIGHT = 256;
const TICK_MS = 100;
const FINAL = new Set(['completed', 'partial', 'failed', 'cancelled']);

/** GETs an administrator's pages make; all must answer 200. */
const BROWSE = [
  '/api/servers',
  '/api/servers/search?limit=50',
  '/api/servers/status-counts',
  '/api/servers/tags',
  '/api/dashboard',
  '/api/sync/batch-summaries?limit=20',
  '/api/sync/batches?limit=5',
  '/api/alert-history',
  '/api/alert-history/active',
  '/api/audit',
  '/api/settings',
  '/api/retries',
  '/api/schedules',
  '/api/presets',
  '/api/scripts',
  '/api/agent/metrics?points=5',
  '/api/auth/me',
];

const SETTINGS: Array<[string, (i: number) => string]> = [
  ['system_name', (i) => `Soak fleet ${i}`],
  ['system_title', (i) => `Soak title ${i}`],
  ['theme', (i) => (i % 2 ? 'light' : 'dark')],
  ['editor_theme', (i) => (i % 2 ? 'vs-dark' : 'vs')],
  ['push_complete_sound', (i) => ['off', 'beep_short', 'beep_double', 'chime_soft'][i % 4]],
];

export interface StartedBatch {
  batchId: string;
  async: boolean;
}

export class Load {
  readonly batches: StartedBatch[] = [];
  heartbeatsLate = 0;
  private running = true;
  private readonly loops: Promise<void>[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly client: SoakClient,
    private readonly o: LoadOptions,
  ) {}

  start(): void {
    this.loops.push(this.heartbeats(), this.pushes(), this.every(500, (i) => this.browse(i)), this.every(5_000, (i) => this.setting(i)), this.every(15_000, () => this.session()));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    await Promise.all(this.inFlight);
  }

  private async every(ms: number, fn: (i: number) => Promise<void>): Promise<void> {
    for (let i = 0; this.running; i++) {
      const t0 = Date.now();
      await fn(i);
      await this.pause(ms - (Date.now() - t0));
    }
  }

  /** Sleeps up to `ms`, waking early when the load stops. */
  private async pause(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.running && Date.now() < until) await sleep(Math.min(250, until - Date.now()));
  }

  private async heartbeats(): Promise<void> {
    const tokens = this.o.agentTokens;
    const perTick = (tokens.length * TICK_MS) / (this.o.heartbeatIntervalS * 1000);
    let due = 0;
    let next = 0;
    while (this.running) {
      const t0 = Date.now();
      due += perTick;
      for (; due >= 1; due--) {
        const i = next++ % tokens.length;
        if (this.inFlight.size >= MAX_IN_FLIGHT) {
          this.heartbeatsLate++;
          continue;
        }
        const r = (i * 7 + next) % 40;
        const p = this.client.request('heartbeat', 'POST', '/api/agent/heartbeat', {
          token: tokens[i],
          body: { cpu: 10 + r, mem: 30 + r / 2, disk: 50, ts: Math.floor(Date.now() / 1000), load: 0.3, uptime: 86_400 + next, version: 'soak' },
        });
        this.inFlight.add(p);
        void p.finally(() => this.inFlight.delete(p));
      }
      await sleep(Math.max(0, TICK_MS - (Date.now() - t0)));
    }
  }

  private async browse(i: number): Promise<void> {
    await this.client.request('browse', 'GET', BROWSE[i % BROWSE.length]);
  }

  private async setting(i: number): Promise<void> {
    const [key, value] = SETTINGS[i % SETTINGS.length];
    const v = value(i);
    if (!(await this.client.request('settings', 'PUT', `/api/settings/${key}`, { body: { value: v } }))) return;
    const read = await this.client.request('settings', 'GET', `/api/settings/${key}`);
    // Written through one worker, read maybe through another: a stale read is a failure.
    if (read && (read.body as { value: unknown }).value !== v) {
      this.client.tally.failed('settings', `GET ${key} gave ${JSON.stringify((read.body as { value: unknown }).value)} after PUT ${JSON.stringify(v)}`);
    }
  }

  /** One sign-in of its own (not the session the other loops use): login, me, refresh, logout. */
  private async session(): Promise<void> {
    const login = await this.client.request('login', 'POST', '/api/auth/login', { body: SOAK_ADMIN, token: null });
    if (!login) return;
    const pair = login.body as { access_token: string; refresh_token: string };
    await this.client.request('login', 'GET', '/api/auth/me', { token: pair.access_token });
    const refreshed = await this.client.request('login', 'POST', '/api/auth/refresh', { body: { refresh_token: pair.refresh_token }, token: null });
    if (!refreshed) return;
    const next = refreshed.body as { refresh_token: string };
    await this.client.request('login', 'POST', '/api/auth/logout', { body: { refresh_token: next.refresh_token }, token: null, expect: [204] });
  }

  private async pushes(): Promise<void> {
    for (let round = 0; this.running; round++) {
      const t0 = Date.now();
      this.o.fleet.touch(round);
      const async = round % 2 === 0;
      const res = await this.client.request('push', 'POST', '/api/sync/files', {
        body: { server_ids: this.o.fleet.serverIds, source_path: this.o.fleet.source, async, concurrency: 4 },
        expect: [async ? 202 : 200],
      });
      if (res) {
        const batchId = (res.body as { batch_id: string }).batch_id;
        this.batches.push({ batchId, async });
        // One batch at a time: the next would find the targets busy (by design) and fail them.
        await this.awaitFinal(batchId, 5 * 60_000);
      }
      await this.pause(this.o.pushIntervalS * 1000 - (Date.now() - t0));
    }
  }

  /** Polls a batch until it reaches a final status (also after the load stopped); false on timeout. */
  async awaitFinal(batchId: string, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const res = await this.client.request('push-poll', 'GET', `/api/sync/batches/${batchId}`);
      if (res && FINAL.has((res.body as { status: string }).status)) return true;
      await sleep(500);
    }
    return false;
  }
}
