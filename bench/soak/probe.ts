/**
 * What the soak reads about the service processes: RSS and open file descriptors from /proc, and
 * `GET /metrics` attributed to the process that answered it. With WORKERS > 1 every worker
 * answers for itself and the scrape carries no pid, so the scrape goes over its own connection
 * and the worker is found by the socket: the kernel's TCP table gives the inode of the service
 * side of that connection, and exactly one process holds a descriptor on it.
 */
import fs from 'node:fs';
import http from 'node:http';

export interface ProcReading {
  rss: number;
  fds: number;
}

export function readProc(pid: number): ProcReading | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
    return { rss, fds: fs.readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return null; // the process is gone
  }
}

/** Prometheus text → `name{labels}` → value (comments skipped). */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

/** Sum of every series of `name` (all label values), optionally only those with `label="value"`. */
export function sumOf(m: Map<string, number>, name: string, label?: string): number {
  let n = 0;
  for (const [k, v] of m) {
    if (k !== name && !k.startsWith(`${name}{`)) continue;
    if (label && !k.includes(label)) continue;
    n += v;
  }
  return n;
}

function socketInode(serverPort: number, clientPort: number): string | null {
  const hex = (p: number) => p.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      if (f[1].endsWith(`:${hex(serverPort)}`) && f[2].endsWith(`:${hex(clientPort)}`)) return f[9];
    }
  }
  return null;
}

function holderOf(inode: string, pids: number[]): number | null {
  const want = `socket:[${inode}]`;
  for (const pid of pids) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === want) return pid;
        } catch {
          // closed meanwhile
        }
      }
    } catch {
      // the process is gone
    }
  }
  return null;
}

export interface Scrape {
  pid: number | null;
  metrics: Map<string, number>;
}

/** One `GET /metrics` on a connection of its own, with the pid of the process that answered. */
export function scrape(url: string, token: string, port: number, candidates: number[]): Promise<Scrape> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<Scrape>((resolve, reject) => {
    const req = http.get(`${url}/metrics`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`GET /metrics answered ${res.statusCode}: ${body.slice(0, 200)}`));
        // The connection is still open (keep-alive): its service side is held by the worker that answered.
        const inode = req.socket?.localPort ? socketInode(port, req.socket.localPort) : null;
        resolve({ pid: inode ? holderOf(inode, candidates) : null, metrics: parseMetrics(body) });
      });
    });
    req.on('error', reject);
  }).finally(() => agent.destroy());
}

/**
 * One scrape from each of `pids` that serves HTTP (a cluster's primary does not): connections
 * go round-robin over the workers, so a few tries reach all of them.
 */
export async function scrapeEach(url: string, token: string, port: number, pids: number[], tries = pids.length * 6): Promise<Map<number, Map<string, number>>> {
  const got = new Map<number, Map<string, number>>();
  for (let i = 0; i < tries && got.size < pids.length; i++) {
    const s = await scrape(url, token, port, pids);
    if (s.pid !== null && !got.has(s.pid)) got.set(s.pid, s.metrics);
  }
  return got;
}
