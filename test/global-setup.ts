// Global set-up for the whole suite. Fixtures that must be shared across test files
// (real sshd instances) are started here once and handed to test files via `inject()`.
import type { TestProject } from 'vitest/node';
import { startSshd, type SshdInfo } from './fixtures/sshd.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's shared sshd (see test/fixtures/sshd.ts); do not stop or kill it from a test. */
    sshd: SshdInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const sshd = await startSshd();
  const info: SshdInfo = {
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    password: sshd.password,
    privateKey: sshd.privateKey,
    publicKey: sshd.publicKey,
    hostKeyFingerprint: sshd.hostKeyFingerprint,
    hostPublicKey: sshd.hostPublicKey,
    homeDir: sshd.homeDir,
    pid: sshd.pid,
    privateKeyPath: sshd.privateKeyPath,
  };
  project.provide('sshd', info);
  return async () => {
    await sshd.stop();
  };
}
