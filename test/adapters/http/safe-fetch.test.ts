/**
 * The SSRF guard against a fake server on 127.0.0.1. Host names are mapped by an injected
 * resolver; blocked targets are refused before any connection is made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchRejectedError, SafeFetcher, blockedRange } from '../../../src/adapters/http/safe-fetch.js';
import { startFakeServer, type FakeServer } from '../../platform/settings/fake-http.js';

const MAP: Record<string, string[]> = {
  'sub.example.test': ['127.0.0.1'],
  'ten.example.test': ['10.0.0.1'],
  'meta.example.test': ['169.254.169.254'],
  'mapped.example.test': ['::ffff:127.0.0.1'],
  'mapped-ten.example.test': ['::ffff:10.0.0.1'],
  'mixed.example.test': ['93.184.216.34', '192.168.1.10'],
  'cgnat.example.test': ['100.64.1.1'],
};

function resolver(calls?: string[]) {
  return async (host: string) => {
    calls?.push(host);
    const hit = MAP[host];
    if (!hit) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return hit;
  };
}

async function rejected(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(FetchRejectedError);
    return (err as Error).message;
  }
  throw new Error('expected a rejection');
}

describe('blockedRange', () => {
  it('admits public unicast only, loopback only when allowed', () => {
    expect(blockedRange('93.184.216.34')).toBeNull();
    expect(blockedRange('2606:4700::1')).toBeNull();
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.1', '240.0.0.1', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:a00:1::', 'garbage']) {
      expect(blockedRange(a), a).not.toBeNull();
    }
    expect(blockedRange('127.0.0.1', true)).toBeNull();
    expect(blockedRange('::1', true)).toBeNull();
  });

  it('refuses IPv4-compatible IPv6 (::/96), which names an IPv4 address such as 127.0.0.1', () => {
    // ipaddr.js reads dotted forms (::127.0.0.1) as IPv4-mapped: blocked like the IPv4 address itself.
    expect(blockedRange('::127.0.0.1')).not.toBeNull();
    for (const a of ['::7f00:1', '::a00:1', '::a9fe:a9fe', '::2']) {
      expect(blockedRange(a), a).toBe('ipv4Compatible');
      expect(blockedRange(a, true), a).toBe('ipv4Compatible');
    }
    expect(blockedRange('::1:0:0:1')).toBeNull();
    expect(blockedRange('::ffff:127.0.0.1', true)).toBeNull();
    for (const a of ['10.0.0.1', '169.254.169.254', '192.168.1.1', '::ffff:10.0.0.1', 'fc00::1', '100.64.0.1']) {
      expect(blockedRange(a, true), a).not.toBeNull();
    }
  });
});

describe('SafeFetcher', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeServer((req, res) => {
      const u = new URL(req.url, 'http://x');
      const hop = (n: number, to: string) => {
        res.writeHead(302, { location: n > 0 ? `/redirect?n=${n - 1}&to=${encodeURIComponent(to)}` : to });
        res.end();
      };
      if (u.pathname === '/sub') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('trojan://pw@a.example.com:443\n');
      } else if (u.pathname === '/redirect') {
        hop(Number(u.searchParams.get('n') ?? 0), u.searchParams.get('to') ?? '/sub');
      } else if (u.pathname === '/big') {
        // Chunked, no content-length: the cap must hold while streaming.
        const size = Number(u.searchParams.get('size'));
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(10_000, 'a');
        let sent = 0;
        const pump = () => {
          while (sent < size) {
            const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
            sent += part.length;
            if (!res.write(part)) return res.once('drain', pump);
          }
          res.end();
        };
        pump();
      } else if (u.pathname === '/declared-big') {
        res.writeHead(200, { 'content-length': '2000000' });
        res.end();
      } else if (u.pathname === '/slow') {
        // Never answers; the deadline must fire.
      } else {
        res.writeHead(404);
        res.end('nope');
      }
    });
  });
  afterAll(async () => fake?.close());

  const strict = () => new SafeFetcher({ resolve: resolver() });
  const loopbackOk = (calls?: string[], extra: Partial<ConstructorParameters<typeof SafeFetcher>[0]> = {}) =>
    new SafeFetcher({ resolve: resolver(calls), allowLoopback: true, ...extra });

  it('refuses non-http schemes, bad URLs and DNS failures', async () => {
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'gopher://x', 'javascript:alert(1)', 'not a url', 'http://nowhere.example.test/']) {
      await rejected(strict().fetchText(url));
    }
    expect(await rejected(strict().fetchText('ftp://example.com/'))).toMatch(/http and https/);
    expect(await rejected(strict().fetchText('http://nowhere.example.test/'))).toMatch(/resolve/);
  });

  it('refuses loopback, private, link-local, CGNAT and mapped targets (literal or resolved)', async () => {
    const p = fake.port;
    const urls = [
      `http://127.0.0.1:${p}/sub`,
      `http://sub.example.test:${p}/sub`,
      `http://localhost.example.test:${p}/sub`,
      'http://10.0.0.1/sub',
      'http://ten.example.test/sub',
      'http://169.254.169.254/latest/meta-data/',
      'http://meta.example.test/',
      'http://100.64.1.1/',
      'http://cgnat.example.test/',
      `http://[::ffff:127.0.0.1]:${p}/sub`,
      `http://[::1]:${p}/sub`,
      'http://mapped.example.test/',
      'http://mapped-ten.example.test/',
      'http://mixed.example.test/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
      'http://192.168.0.1/',
    ];
    for (const url of urls) await rejected(strict().fetchText(url));
    expect(fake.requests.length).toBe(0);
  });

  it('normalises numeric host forms before checking', async () => {
    const p = fake.port;
    for (const host of ['2130706433', '0x7f.1', '017700000001', '127.1', '0x7f000001', '167772161', '0']) {
      const msg = await rejected(strict().fetchText(`http://${host}:${p}/sub`));
      expect(msg, host).toMatch(/blocked address/);
    }
    expect(fake.requests.length).toBe(0);
  });

  it('FLEET_ALLOW_PRIVATE_FETCH admits loopback only', async () => {
    const f = loopbackOk();
    expect(await f.fetchText(`http://127.0.0.1:${fake.port}/sub`)).toContain('trojan://');
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/', 'http://192.168.1.1/', 'http://mapped-ten.example.test/', 'http://[fc00::1]/']) {
      expect(await rejected(f.fetchText(url))).toMatch(/blocked address/);
    }
  });

  it('connects to the checked address without a second lookup, keeping the Host header', async () => {
    const calls: string[] = [];
    let first = true;
    // A rebinding resolver: the second answer would be a private address.
    const f = new SafeFetcher({
      allowLoopback: true,
      resolve: async (host) => {
        calls.push(host);
        const answer = first ? ['127.0.0.1'] : ['10.0.0.1'];
        first = false;
        return answer;
      },
    });
    const before = fake.requests.length;
    expect(await f.fetchText(`http://rebind.example.test:${fake.port}/sub`)).toContain('a.example.com');
    expect(calls).toEqual(['rebind.example.test']);
    expect(fake.requests[before].headers.host).toBe(`rebind.example.test:${fake.port}`);
  });

  it('follows up to 3 redirects, re-checking every hop', async () => {
    const calls: string[] = [];
    const f = loopbackOk(calls);
    const base = `http://sub.example.test:${fake.port}`;
    expect(await f.fetchText(`${base}/redirect?n=2&to=${encodeURIComponent('/sub')}`)).toContain('trojan://');
    expect(calls.length).toBe(4);
    expect(await rejected(f.fetchText(`${base}/redirect?n=3&to=${encodeURIComponent('/sub')}`))).toMatch(/redirect/i);
  });

  it('refuses a redirect to a private, link-local, mapped or numeric target', async () => {
    const f = loopbackOk();
    const base = `http://sub.example.test:${fake.port}`;
    for (const to of [
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://ten.example.test/',
      'http://[::ffff:10.0.0.1]/',
      'http://167772161/',
      'http://0xa.0.0.1/',
      'http://192.168.1.1/',
      'file:///etc/passwd',
    ]) {
      await rejected(f.fetchText(`${base}/redirect?n=0&to=${encodeURIComponent(to)}`));
      await rejected(f.fetchText(`${base}/redirect?n=1&to=${encodeURIComponent(to)}`));
    }
  });

  it('refuses a non-200 final status', async () => {
    expect(await rejected(loopbackOk().fetchText(`http://127.0.0.1:${fake.port}/missing`))).toMatch(/HTTP 404/);
  });

  it('caps the body at 1,000,000 bytes while streaming', async () => {
    const f = loopbackOk();
    expect((await f.fetchText(`http://127.0.0.1:${fake.port}/big?size=1000000`)).length).toBe(1_000_000);
    expect(await rejected(f.fetchText(`http://127.0.0.1:${fake.port}/big?size=1000001`))).toMatch(/1000000 bytes/);
    expect(await rejected(f.fetchText(`http://127.0.0.1:${fake.port}/declared-big`))).toMatch(/1000000 bytes/);
  });

  it('times out', async () => {
    const f = loopbackOk(undefined, { timeoutMs: 300 });
    const start = Date.now();
    expect(await rejected(f.fetchText(`http://127.0.0.1:${fake.port}/slow`))).toMatch(/timed out/);
    expect(Date.now() - start).toBeLessThan(3000);
  });
});
