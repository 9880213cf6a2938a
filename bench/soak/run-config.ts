/**
 * One configuration of the soak, start to end: the service started as a process, the fleet set
 * up through the API, the mixed load for the whole duration with a sample of every service
 * process every 10 s, then the accounts (pushes, heartbeats) and the verdicts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { round } from '../lib.js';
import { accountPushes, growthByProcess, growthFailures, serviceFds, type PushAccount, type Sample } from './checks.js';
import { SoakClient } from './client.js';
import { createAgents, createPushFleet } from './fleet.js';
import { Load } from './load.js';
import { readProc, scrapeEach, sumOf } from './probe.js';
import { startService, type SoakService } from './service.js';

export interface SoakConfig {
  name: string;
  env: Record<string, string>;
  /** Processes that serve HTTP: 1 for a single process, else the cluster's workers. */
  workers: number;
}

export interface SoakOptions {
  durationS: number;
  agents: number;
  targets: number;
  heartbeatIntervalS: number;
  pushIntervalS: number;
  sampleS: number;
  logDir: string;
}

export interface Goal {
  name: string;
  pass: boolean;
  detail: string;
}

const WARMUP_SHARE = 0.2;

/** The HTTP-serving pids: the process itself, or (cluster) its workers. */
function httpPids(svc: SoakService, workers: number): number[] {
  const all = svc.pids();
  return workers > 1 ? all.slice(1) : all;
}

async function sampleOnce(svc: SoakService, client: SoakClient, cfg: SoakConfig, t: number): Promise<Sample[]> {
  // /proc first: the scrapes' own connections are then long closed, not counted among the descriptors.
  const procs = svc.pids().map((pid) => ({ pid, proc: readProc(pid) }));
  const token = await client.adminToken();
  const scraped = await scrapeEach(svc.url, token, svc.port, httpPids(svc, cfg.workers)).catch(() => new Map<number, Map<string, number>>());
  const out: Sample[] = [];
  for (const { pid, proc } of procs) {
    if (!proc) continue;
    const m = scraped.get(pid);
    out.push({
      t: round(t, 1), pid, ...proc,
      metrics: m && {
        rss: m.get('fleet_process_resident_memory_bytes') ?? NaN,
        fds: m.get('fleet_process_open_fds') ?? NaN,
        heapUsed: m.get('fleet_nodejs_heap_size_used_bytes') ?? NaN,
      },
    });
  }
  return out;
}

export async function runConfig(cfg: SoakConfig, o: SoakOptions) {
  const svc = await startService(cfg.name, cfg.env, o.logDir);
  const client = new SoakClient(svc.url);
  const tag = `${cfg.name}-${process.pid}`;
  let fleet: Awaited<ReturnType<typeof createPushFleet>> | null = null;
  try {
    const setupAt = Date.now();
    const tokens = await createAgents(client, o.agents);
    fleet = await createPushFleet(client, o.targets, tag);
    const setupS = (Date.now() - setupAt) / 1000;
    process.stdout.write(`  [${cfg.name}] ${o.agents} agents and ${o.targets} sshd targets set up in ${round(setupS, 1)} s; load for ${o.durationS} s\n`);

    const load = new Load(client, { agentTokens: tokens, heartbeatIntervalS: o.heartbeatIntervalS, pushIntervalS: o.pushIntervalS, fleet });
    const samples: Sample[] = [];
    const startedPids = svc.pids();
    const t0 = Date.now();
    load.start();
    for (let next = 0; ; next += o.sampleS) {
      await sleep(Math.max(0, t0 + next * 1000 - Date.now()));
      samples.push(...(await sampleOnce(svc, client, cfg, (Date.now() - t0) / 1000)));
      if (next >= o.durationS) break;
    }
    await load.stop();
    const pending = await Promise.all(load.batches.map((b) => load.awaitFinal(b.batchId, 120_000)));

    // The accounts: every HTTP process's counters, read after the load has stopped.
    const http = httpPids(svc, cfg.workers);
    const finalScrape = await scrapeEach(svc.url, await client.adminToken(), svc.port, http);
    const complete = finalScrape.size === http.length ? finalScrape : null;
    const pushes: PushAccount = await accountPushes(client, load.batches, fleet.serverIds.length, complete);
    if (pending.some((ok) => !ok)) pushes.problems.push(`${pending.filter((ok) => !ok).length} batches not final 2 minutes after the load stopped`);
    const heartbeatsOk = client.tally.kinds.get('heartbeat')?.ok ?? 0;
    const heartbeatsCounted = complete ? [...complete.values()].reduce((n, m) => n + sumOf(m, 'fleet_heartbeats_total'), 0) : null;

    const endPids = svc.pids();
    await svc.stop();
    // The log is complete once the process group has exited.
    await sleep(200);

    const warmupS = o.durationS * WARMUP_SHARE;
    const growth = growthByProcess(samples, warmupS);
    const fds = serviceFds(samples, warmupS);
    const grew = growthFailures(growth, fds);
    const restarted = JSON.stringify(startedPids) !== JSON.stringify(endPids);
    const requestsFailed = client.tally.totalFailed();
    const goals: Goal[] = [
      { name: 'rss (per process) and fds (service) growth <= 10 % after warm-up', pass: grew.length === 0, detail: grew.join('; ') || 'ok' },
      { name: 'no error-level log line', pass: svc.log.errorLines === 0, detail: svc.log.firstErrors.slice(0, 3).join(' | ') || 'none' },
      { name: 'every push accounted for', pass: pushes.problems.length === 0 && pushes.started > 0, detail: pushes.problems.slice(0, 5).join('; ') || `${pushes.started} batches, all final, counts agree` },
      {
        name: 'every heartbeat counted',
        // Heartbeats not sent because too many were waiting say the machine is saturated, not that the service lost any.
        pass: heartbeatsCounted === heartbeatsOk,
        detail: `${heartbeatsOk} answered 200, /metrics counted ${heartbeatsCounted ?? 'unknown'}; ${load.heartbeatsLate} not sent (backlog)`,
      },
      { name: 'every request answered as expected', pass: requestsFailed === 0, detail: `${requestsFailed} failed` },
      { name: 'no service process restarted', pass: !restarted, detail: `${startedPids.join(',')} → ${endPids.join(',')}` },
    ];
    return {
      config: cfg.name,
      env: Object.fromEntries(Object.entries(cfg.env).filter(([k]) => k !== 'DATABASE_URL')),
      pass: goals.every((g) => g.pass),
      goals,
      duration_s: o.durationS,
      warmup_s: warmupS,
      setup_s: round(setupS, 1),
      agents: o.agents,
      heartbeat_interval_s: o.heartbeatIntervalS,
      sshd_targets: o.targets,
      growth,
      service_fds: fds,
      pushes,
      heartbeats: { answered: heartbeatsOk, counted_by_metrics: heartbeatsCounted, late: load.heartbeatsLate },
      requests: client.tally.summary(),
      log: svc.log,
      samples,
    };
  } finally {
    await svc.stop();
    await client.close();
    await fleet?.stop();
  }
}

export type ConfigResult = Awaited<ReturnType<typeof runConfig>>;
