/**
 * A loopback TCP proxy in front of a real server (PostgreSQL, Redis, sshd) that a fault test can
 * break: `outage(ms)` cuts every open connection and refuses new ones for that long, which is what
 * a client sees while the server restarts; `stall()` keeps connections open but stops forwarding.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections dropped and refused for `ms`, then accepted again. */
  outage(ms: number): Promise<void>;
  /** Every connection dropped; new ones refused until `up()`. */
  down(): void;
  up(): void;
  /** Bytes stop flowing both ways (connections stay open) until `resume()`. */
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let refusing = false;
  let stalled = false;
  const paused: net.Socket[] = [];
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = net.connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    if (stalled) {
      client.pause();
      upstream.pause();
      paused.push(client, upstream);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const proxy: TcpProxy = {
    port,
    async outage(ms) {
      proxy.down();
      await new Promise((r) => setTimeout(r, ms));
      proxy.up();
    },
    down() {
      refusing = true;
      for (const s of open) s.destroy();
    },
    up() {
      refusing = false;
    },
    stall() {
      stalled = true;
      for (const s of open) {
        s.pause();
        paused.push(s);
      }
    },
    resume() {
      stalled = false;
      for (const s of paused.splice(0)) s.resume();
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
