/**
 * A throwaway `redis-server` of the test's own, without persistence, that the test may stop and
 * start again on the same port: a restart comes back empty, as a production Redis without
 * persistence (or a new one after a failover) does. The shared Redis on 6379 is never touched.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from './service-process.js';

export interface RedisServer {
  port: number;
  url: string;
  /** Stops the server (SIGTERM, nothing saved) and resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port; resolves once it answers PING. */
  start(): Promise<void>;
}

/** Throws, saying what to install, when the binary is missing. */
export async function startRedisServer(): Promise<RedisServer> {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('redis-server is not installed: apt-get install redis-server (the test runs its own instance)');
  }
  const port = await freePort();
  let child: ChildProcess | null = null;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      child = c;
      const deadline = Date.now() + 10_000;
      while (!(await pong(port))) {
        if (c.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    },
  };
  await server.start();
  return server;
}

function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.setTimeout(1000);
    s.once('connect', () => s.write('PING\r\n'));
    s.once('data', (d) => {
      s.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}
