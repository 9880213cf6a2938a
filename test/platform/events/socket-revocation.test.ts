/**
 * A live socket lives no longer than the token that opened it: it is closed with 4401 when the
 * admin's password changes (token_version), when the admin is deleted, and when the token
 * expires, on the worker that made the change and on the others (the change travels over Redis).
 */
import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { connectWs, type WsClient } from '../../helpers/ws.js';

const apps: TestApp[] = [];
const sockets: WsClient[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  for (const a of apps.splice(0).reverse()) await a.close();
});

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as { port: number }).port;
}

let probe = 0;
/** A socket the server has authenticated: it has received a live event. */
async function open(t: TestApp, port: number, token: string): Promise<WsClient> {
  const ws = connectWs(`ws://127.0.0.1:${port}/ws/alerts?token=${token}`);
  sockets.push(ws);
  await ws.opened;
  const id = `probe-${++probe}`;
  const seen = ws.next((m) => m.batch_id === id);
  const pump = setInterval(() => void t.app.services.events.publish({ type: 'push_progress', batch_id: id, seq: 1 }), 20);
  try {
    await seen;
  } finally {
    clearInterval(pump);
  }
  return ws;
}

/** Resolves with the close code, or 'open' when the socket is still open after `ms`. */
function closedWithin(ws: WsClient, ms: number): Promise<number | 'open'> {
  return Promise.race([ws.closed, new Promise<'open'>((r) => setTimeout(() => r('open'), ms))]);
}

async function admin(t: TestApp, username: string, password: string): Promise<{ id: number; token: string }> {
  const created = await t.app.inject({ method: 'POST', url: '/api/admins', headers: await t.auth(), payload: { username, password } });
  expect(created.statusCode).toBe(201);
  const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  return { id: created.json().id as number, token: login.json().access_token as string };
}

const changePassword = (t: TestApp, token: string, current: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/change-password',
    headers: { authorization: `Bearer ${token}` },
    payload: { current_password: current, new_password: `${current}-next` },
  });

describe('/ws/alerts closes when its token stops being valid', () => {
  it('a password change closes the admin’s sockets with 4401, and only theirs', async () => {
    const a = await makeTestApp();
    apps.push(a);
    const port = await listen(a);
    const ops = await admin(a, 'ops', 'ops-password-1');
    const mine = await open(a, port, ops.token);
    const someoneElse = await open(a, port, await a.token());
    expect((await changePassword(a, ops.token, 'ops-password-1')).statusCode).toBe(200);
    expect(await closedWithin(mine, 3000)).toBe(4401);
    expect(await closedWithin(someoneElse, 300)).toBe('open');
  });

  it('deleting the admin closes their sockets with 4401', async () => {
    const a = await makeTestApp();
    apps.push(a);
    const port = await listen(a);
    const temp = await admin(a, 'temp', 'temp-password-1');
    const ws = await open(a, port, temp.token);
    expect((await a.app.inject({ method: 'DELETE', url: `/api/admins/${temp.id}`, headers: await a.auth() })).statusCode).toBe(204);
    expect(await closedWithin(ws, 3000)).toBe(4401);
  });

  it('the token’s expiry closes the socket with 4401', async () => {
    const a = await makeTestApp();
    apps.push(a);
    const port = await listen(a);
    const me = (await a.app.inject({ url: '/api/auth/me', headers: await a.auth() })).json();
    const shortLived = await new SignJWT({ username: me.username, token_version: 0, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(me.id))
      .setJti('short-lived')
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 2)
      .sign(createSecretKey(Buffer.from(a.config.secretKey, 'utf8')));
    const ws = await open(a, port, shortLived);
    expect(await closedWithin(ws, 500)).toBe('open');
    expect(await closedWithin(ws, 4000)).toBe(4401);
  });
});

describe.runIf(process.env.TEST_CACHE_URL)('/ws/alerts closes across workers', () => {
  it('a password change or a deletion on one worker closes the sockets held by another', async () => {
    const a = await makeTestApp({ cache: 'redis' });
    apps.push(a);
    const b = await makeTestApp({ shareWith: a });
    apps.push(b);
    const port = await listen(b);
    const ops = await admin(a, 'ops', 'ops-password-1');
    const temp = await admin(a, 'temp', 'temp-password-1');
    const opsSocket = await open(b, port, ops.token);
    const tempSocket = await open(b, port, temp.token);
    expect((await changePassword(a, ops.token, 'ops-password-1')).statusCode).toBe(200);
    expect(await closedWithin(opsSocket, 3000)).toBe(4401);
    expect(await closedWithin(tempSocket, 200)).toBe('open');
    expect((await a.app.inject({ method: 'DELETE', url: `/api/admins/${temp.id}`, headers: await a.auth() })).statusCode).toBe(204);
    expect(await closedWithin(tempSocket, 3000)).toBe(4401);
  });
});
