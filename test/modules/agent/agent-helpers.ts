/** Shared steps of the monitoring tests: servers with agent tokens, heartbeats, settings. */
import type { TestApp } from '../../helpers/app.js';
import { cacheKinds, dbKinds, type CacheKind, type DbKind } from '../../helpers/targets.js';
import type { AlertEntry } from '../../../src/modules/alerts/alert-history.schemas.js';

export interface Reading {
  cpu?: number;
  mem?: number;
  disk?: number;
  ts?: number;
  load?: number;
  uptime?: number;
}

export async function createServer(t: TestApp, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/servers',
    headers: await t.auth(),
    payload: { host: '10.20.30.40', ...extra, name },
  });
  if (res.statusCode !== 201) throw new Error(`create server failed: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

export async function rotateToken(t: TestApp, id: number): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `/api/servers/${id}/agent-token`, headers: await t.auth() });
  if (res.statusCode !== 200) throw new Error(`agent-token failed: ${res.statusCode} ${res.body}`);
  return res.json().agent_token as string;
}

/** A server with a fresh agent token. */
export async function monitoredServer(t: TestApp, name: string): Promise<{ id: number; token: string }> {
  const id = await createServer(t, name);
  return { id, token: await rotateToken(t, id) };
}

/** Posts a heartbeat; `nowMs` is the agent clock (defaults to the app's clock, i.e. no drift). */
export function heartbeat(t: TestApp, token: string, r: Reading = {}, nowMs = t.app.services.alerts.now()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/agent/heartbeat',
    headers: { authorization: `Bearer ${token}` },
    payload: { cpu: 10, mem: 20, disk: 30, ts: Math.floor(nowMs / 1000), ...r },
  });
}

export async function putSetting(t: TestApp, key: string, value: string): Promise<void> {
  const res = await t.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers: await t.auth(), payload: { value } });
  if (res.statusCode !== 200) throw new Error(`PUT setting ${key} failed: ${res.statusCode} ${res.body}`);
}

export async function getServer(t: TestApp, id: number): Promise<{ status: string; last_heartbeat_at: string | null }> {
  const res = await t.app.inject({ url: `/api/servers/${id}`, headers: await t.auth() });
  return res.json();
}

/** A history entry as the API returns it. */
export type HistoryItem = AlertEntry;

export async function history(t: TestApp, query = ''): Promise<{ items: HistoryItem[]; total: number } & Record<string, unknown>> {
  const res = await t.app.inject({ url: `/api/alert-history${query ? `?${query}` : ''}`, headers: await t.auth() });
  if (res.statusCode !== 200) throw new Error(`alert-history failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Polls until `fn` returns a truthy value (or fails after `ms`). */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, ms = 10_000, stepMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as T;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** SQLite with the in-process cache, and PostgreSQL with Redis when both are available. */
export function backends(): Array<[db: DbKind, cache: CacheKind]> {
  return dbKinds().map((db) => [db, db === 'postgres' && cacheKinds().includes('redis') ? 'redis' : 'memory']);
}
