/**
 * The real service as a process for crash tests: started on a DATA_DIR (and a staging prefix)
 * that survive it, killed with SIGKILL (no shutdown code runs: the process group goes at once, as
 * under the OOM killer or a power cut), and started again on the same files and database.
 */
import { freePort, ProcessScope, waitHealthy, type ServiceProcess } from '../helpers/service-process.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../helpers/app.js';

export interface Service {
  proc: ServiceProcess;
  port: number;
  /** Milliseconds from spawn to a healthy answer. */
  startMs: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields of every answer without narrowing
  call(method: string, url: string, body?: unknown): Promise<{ status: number; json: any }>;
  token: string;
}

export class CrashScope {
  readonly scope = new ProcessScope();

  async start(env: Record<string, string>): Promise<Service> {
    const port = await freePort();
    const started = Date.now();
    const proc = this.scope.start({
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
      RATE_LIMIT_AUTH_PER_MINUTE: '0',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '0',
      ...env,
      PORT: String(port),
    });
    await waitHealthy(port, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${proc.err()}`);
    });
    const startMs = Date.now() - started;
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const token = ((await login.json()) as { access_token: string }).access_token;
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown = text;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON: the text itself
      }
      return { status: res.status, json };
    };
    return { proc, port, startMs, call, token };
  }

  /** SIGKILL to the whole process group (tsx, the service, its rsync/ssh children); resolves once it is gone. */
  async kill(s: Service): Promise<void> {
    process.kill(-s.proc.child.pid!, 'SIGKILL');
    await s.proc.exited;
  }

  tempDir(): string {
    return this.scope.tempDir();
  }

  cleanup(): void {
    this.scope.cleanup();
  }
}

/**
 * The restart budget: serving within 10 s, or, on a machine so loaded that even a cold first start
 * (migrations, key generation) took longer, no slower than 1.5 times that start — a restart after a
 * crash must not add slow recovery work before it serves.
 */
export function restartBudgetMs(firstStartMs: number): number {
  return Math.max(10_000, Math.round(firstStartMs * 1.5));
}
