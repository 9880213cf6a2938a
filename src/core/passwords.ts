/** Argon2id at the OWASP-recommended parameters (19 MiB, 2 iterations, 1 lane). */
import { randomBytes } from 'node:crypto';
import { Algorithm, hash, verify } from '@node-rs/argon2';

const PARAMS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;

/** Spends the same time as a real check, so an unknown username is indistinguishable by timing. */
export async function burnVerify(password: string): Promise<false> {
  dummy ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummy, password);
  return false;
}

/** A password the service makes up (the first administrator's, a reset from the host): 96 random bits. */
export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}
