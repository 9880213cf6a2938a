/**
 * The caller address with TRUST_PROXY as Fastify's trustProxy: N hops take the N-th
 * X-Forwarded-For address from the right, a list trusts only those proxies, unset ignores the
 * header, and a value that is neither is a start-up error naming the variable.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readEnvConfig } from '../../src/config/config.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** The address the audit log records for an anonymous (failed) login. */
async function callerOf(app: TestApp, xff: string | null, remoteAddress = '127.0.0.1'): Promise<string> {
  await app.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: 'nobody', password: 'wrong-password' },
    headers: xff === null ? {} : { 'x-forwarded-for': xff },
    remoteAddress,
  });
  const row = await app.app.services.db.selectFrom('audit_log').select('ip_address').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  return row.ip_address ?? '';
}

describe('caller address', () => {
  it('unset: the socket address; the header is ignored', async () => {
    t = await makeTestApp();
    expect(await callerOf(t, '203.0.113.9')).toBe('127.0.0.1');
    expect(await callerOf(t, null, '::ffff:192.0.2.4')).toBe('192.0.2.4');
  });

  it('TRUST_PROXY=1: the rightmost entry; what the client wrote stays to the left and is ignored', async () => {
    t = await makeTestApp({ env: { TRUST_PROXY: '1' } });
    expect(await callerOf(t, '203.0.113.9')).toBe('203.0.113.9');
    expect(await callerOf(t, '10.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(await callerOf(t, null)).toBe('127.0.0.1');
  });

  it('TRUST_PROXY=2: the second entry from the right', async () => {
    t = await makeTestApp({ env: { TRUST_PROXY: '2' } });
    expect(await callerOf(t, '10.6.6.6, 203.0.113.9, 192.0.2.50')).toBe('203.0.113.9');
  });

  it('a list of proxies: trusted only when the connection comes from one of them', async () => {
    t = await makeTestApp({ env: { TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' } });
    expect(await callerOf(t, '203.0.113.9')).toBe('203.0.113.9');
    expect(await callerOf(t, '203.0.113.9', '10.1.2.3')).toBe('203.0.113.9');
    expect(await callerOf(t, '203.0.113.9', '192.0.2.77')).toBe('192.0.2.77');
  });

  it.each(['yes', 'true', '1.2.3.4/99', 'proxy.example.com', '-1'])('TRUST_PROXY=%s is a start-up error naming the variable', (value) => {
    expect(() => readEnvConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});
