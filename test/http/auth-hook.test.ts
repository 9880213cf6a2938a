/**
 * The authentication hook's Bearer parsing, remembered for the last few headers: the answer is the
 * pattern's for every header, several callers taking turns never get each other's token, and what
 * is remembered is only the parse, never the verdict (a revoked token is refused at once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BearerTokens } from '../../src/http/auth-hook.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/targets.js';

describe('BearerTokens', () => {
  it('answers the token of a Bearer header, null for anything else', () => {
    const bearer = new BearerTokens();
    expect(bearer.of('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearer.of('bearer \t abc')).toBe('abc');
    for (const h of ['Bearer', 'Bearer ', 'Bearer a b', 'Basic abc', 'Bearerabc', ' Bearer abc']) expect(bearer.of(h)).toBeNull();
    // The same answers again, now from memory.
    expect(bearer.of('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearer.of('Bearer a b')).toBeNull();
  });

  it('gives each of more callers than it remembers their own token, turn after turn', () => {
    const bearer = new BearerTokens(4);
    const tokens = Array.from({ length: 7 }, (_, i) => `token-${i}.${'x'.repeat(40)}`);
    for (let round = 0; round < 3; round++) {
      for (const t of tokens) expect(bearer.of(`Bearer ${t}`)).toBe(t);
      for (const t of tokens.slice(0, 3)) expect(bearer.of(`Bearer ${t}`)).toBe(t);
    }
  });
});

describe.each(dbKinds())('authentication hook on %s', (db) => {
  let t: TestApp;
  const me = (token: string) => t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
  const login = async (username: string, password: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    expect(res.statusCode).toBe(200);
    return res.json().access_token as string;
  };

  beforeAll(async () => {
    t = await makeTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('many admins taking turns are each themselves; a revoked one is refused at once, the others not', async () => {
    const admin = await t.auth();
    const names = Array.from({ length: 6 }, (_, i) => `turn${i}`);
    for (const username of names) {
      const res = await t.app.inject({ method: 'POST', url: '/api/admins', headers: admin, payload: { username, password: `${username}-password` } });
      expect(res.statusCode).toBe(201);
    }
    const tokens = await Promise.all(names.map((n) => login(n, `${n}-password`)));
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < names.length; i++) {
        const res = await me(tokens[i]);
        expect(res.statusCode).toBe(200);
        expect(res.json().username).toBe(names[i]);
      }
    }
    expect((await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${tokens[0]} extra` } })).statusCode).toBe(401);

    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { authorization: `Bearer ${tokens[2]}` },
      payload: { current_password: 'turn2-password', new_password: 'turn2-password-new' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(tokens[2])).statusCode).toBe(401);
    for (const i of [0, 1, 3, 4, 5]) expect((await me(tokens[i])).statusCode).toBe(200);
  });
});
