/**
 * Where a server's time per request goes, by production hook: a V8 CPU profile of the server
 * child (`--cpu-prof`), cut to the measured window, each sample charged to the innermost frame
 * that belongs to a known part (a hook's file, the logger, the metrics, a route's module; a
 * library a hook calls, such as the IP parser, is charged to the hook), the rest to Fastify and
 * Node's HTTP, the socket writes to the kernel. Innermost, because Fastify runs the next hook from
 * inside the previous one's `done`; and the search stops at Fastify's lifecycle dispatch, so what
 * runs on from a hook's `done` (the next hooks' dispatch, a synchronous handler's answer) is not
 * charged to that hook. Figures are µs per request of sampled (wall) time, which on a
 * loaded machine includes time the process waited for a CPU: compare them with each other.
 * Profile timestamps and `process.hrtime` read the same monotonic clock, so the parent can name
 * the window.
 */
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Part names by what a frame's URL contains; the first rule a frame matches names it. */
const PARTS: Array<[RegExp, string]> = [
  [/src\/http\/security-headers\.ts/, 'security headers'],
  [/src\/http\/auth-hook\.ts/, 'auth hook (token + admin check)'],
  [/src\/http\/input-guard\.ts/, 'input guard'],
  [/src\/http\/idempotency\.ts/, 'idempotency'],
  [/@fastify\/rate-limit|src\/http\/rate-limit\.ts/, 'rate limit'],
  [/src\/http\/console-static\.ts/, 'console / not-found'],
  [/src\/http\/error-handler\.ts/, 'error handler'],
  [/src\/http\/validation\.ts|node_modules\/ajv/, 'validation'],
  [/src\/app\.ts|prom-client|src\/platform\/metrics/, 'metrics (onResponse)'],
  [/src\/http\/log-options\.ts|node_modules\/pino/, 'request logging'],
  [/fast-json-stringify/, 'response serialization'],
  [/src\/modules\/agent\/heartbeat-writer\.ts/, 'heartbeat writer (batched flush)'],
  [/src\/modules\/agent\/heartbeat-points/, 'heartbeat points'],
  [/src\/modules\/alerts\//, 'alert evaluation'],
  [/src\/modules\/agent\/agent-tokens|src\/modules\/agent\/agent\.service\.ts/, 'agent token check + ingest'],
  [/src\/modules\/agent\//, 'agent route'],
  [/src\/modules\/auth\/auth\.routes\.ts/, 'route handler + service'],
  [/src\/modules\/(auth|admins)\/|node_modules\/jose/, 'auth hook (token + admin check)'],
  [/src\/modules\//, 'route handler + service'],
  [/kysely|better-sqlite3|node:sqlite/, 'database'],
];

/** Fastify's lifecycle dispatch: a hook's `done` continues the request through these. */
const LIFECYCLE = /node_modules\/fastify\/lib\/(hooks|handle-request)\.js/;

/** The newest profile the child wrote into `dir` (the main thread's is the largest). */
export function readProfile(dir: string): Profile {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const largest = files.sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)[0];
  if (!largest) throw new Error(`no CPU profile in ${dir}`);
  return JSON.parse(fs.readFileSync(path.join(dir, largest), 'utf8')) as Profile;
}

/**
 * µs per request of each part over [fromUs, toUs] (monotonic clock, as `process.hrtime.bigint() / 1000n`),
 * busy time only (idle samples left out).
 */
export function costPerRequest(profile: Profile, fromUs: number, toUs: number, requests: number): Record<string, number> {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const partOf = new Map<number, string | null>();
  const classify = (leafId: number): string | null => {
    const cached = partOf.get(leafId);
    if (cached !== undefined) return cached;
    const leaf = byId.get(leafId)!.callFrame.functionName;
    let part: string | null = null;
    if (leaf === '(idle)') part = null;
    else if (leaf === '(garbage collector)') part = 'garbage collection';
    else {
      const stack: ProfileNode[] = [];
      for (let id: number | undefined = leafId; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!);
      if (/^writev?$|^writeUtf8String$|^writeBuffer$/.test(leaf)) part = 'socket writes (kernel)';
      for (let i = 0; i < stack.length && !part; i++) {
        // Fastify's lifecycle, run on from a hook's `done`: what it does next (the next hooks'
        // dispatch, the handler's answer) is not that hook's cost.
        if (LIFECYCLE.test(stack[i].callFrame.url)) break;
        part = PARTS.find(([re]) => re.test(stack[i].callFrame.url))?.[1] ?? null;
      }
      part ??= 'Fastify + Node HTTP (framework)';
    }
    partOf.set(leafId, part);
    return part;
  };
  const totals: Record<string, number> = {};
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < fromUs || t > toUs) continue;
    const part = classify(profile.samples[i]);
    if (part) totals[part] = (totals[part] ?? 0) + profile.timeDeltas[i];
  }
  const out: Record<string, number> = {};
  let busy = 0;
  for (const [part, us] of Object.entries(totals).sort((a, b) => b[1] - a[1])) {
    out[part] = Math.round((us / requests) * 100) / 100;
    busy += us;
  }
  out.total_busy = Math.round((busy / requests) * 100) / 100;
  return out;
}
