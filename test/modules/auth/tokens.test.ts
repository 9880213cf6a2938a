import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenService } from '../../../src/modules/auth/tokens.js';

const SECRET = 'a-test-secret-of-sufficient-length-000';

describe('TokenService', () => {
  it('issues token_version and reads it back; the wrong type or a missing version is refused', async () => {
    const svc = new TokenService(SECRET);
    const pair = await svc.issuePair({ id: 7, username: 'ops', token_version: 3 });
    expect(await svc.verify(pair.access_token, 'access')).toEqual({
      adminId: 7, username: 'ops', tokenVersion: 3, type: 'access', expiresAt: expect.any(Number), jti: expect.any(String),
    });
    expect(await svc.verify(pair.access_token, 'refresh')).toBeNull();
    const noVersion = await new SignJWT({ username: 'ops', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' }).setSubject('7').setExpirationTime('5m')
      .sign(createSecretKey(Buffer.from(SECRET)));
    expect(await svc.verify(noVersion, 'access')).toBeNull();
  });

  it('still accepts the `tv` claim of tokens issued by earlier builds', async () => {
    const legacy = await new SignJWT({ username: 'ops', tv: 2, typ: 'refresh' })
      .setProtectedHeader({ alg: 'HS256' }).setSubject('7').setExpirationTime('5m')
      .sign(createSecretKey(Buffer.from(SECRET)));
    expect((await new TokenService(SECRET).verify(legacy, 'refresh'))?.tokenVersion).toBe(2);
  });

  it('verifyKnown answers from memory only for a verified, unexpired token; an expired one is refused in full', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const svc = new TokenService(SECRET, () => clock.now);
    const pair = await svc.issuePair({ id: 7, username: 'ops', token_version: 3 });
    expect(svc.verifyKnown(pair.access_token, 'access')).toBeUndefined(); // never verified: the caller must verify
    expect((await svc.verify(pair.access_token, 'access'))?.tokenVersion).toBe(3);
    expect(svc.verifyKnown(pair.access_token, 'access')?.tokenVersion).toBe(3);
    expect(svc.verifyKnown(pair.access_token, 'refresh')).toBeNull();
    expect(svc.verifyKnown(`${pair.access_token}x`, 'access')).toBeUndefined();
    clock.now += 31 * 60 * 1000; // past the access token's 30 minutes
    expect(svc.verifyKnown(pair.access_token, 'access')).toBeUndefined();
    expect(await svc.verify(pair.access_token, 'access')).toBeNull();
  });
});
