/**
 * What the soak loads the service with before the clock starts: N agent servers (each with its
 * own agent token, never reached over SSH) and a few real loopback sshd targets to push to, each
 * with its own target directory under the test user's home, plus a staged source tree.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startSshd, type SshdInstance } from '../../test/fixtures/sshd.js';
import type { SoakClient } from './client.js';

export interface PushFleet {
  targets: SshdInstance[];
  serverIds: number[];
  targetDirs: string[];
  source: string;
  /** Rewrites a few files of the source, so the next push has something to send. */
  touch(round: number): void;
  stop(): Promise<void>;
}

export async function createAgents(client: SoakClient, n: number): Promise<string[]> {
  const tokens: string[] = new Array(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const created = await client.request('setup', 'POST', '/api/servers', {
        body: { name: `soak-agent-${i}`, host: `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}` },
        expect: [201],
      });
      if (!created) throw new Error(`creating agent server ${i} failed: ${client.tally.kinds.get('setup')?.firstFailures.at(-1)}`);
      const id = (created.body as { id: number }).id;
      const rotated = await client.request('setup', 'POST', `/api/servers/${id}/agent-token`);
      if (!rotated) throw new Error(`agent token of server ${id} failed: ${client.tally.kinds.get('setup')?.firstFailures.at(-1)}`);
      tokens[i] = (rotated.body as { agent_token: string }).agent_token;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return tokens;
}

const FILES = 60;
const FILE_BYTES = 8 * 1024;

export async function createPushFleet(client: SoakClient, n: number, tag: string): Promise<PushFleet> {
  const targets: SshdInstance[] = [];
  const source = fs.mkdtempSync('/tmp/svc_upload_soak');
  try {
    for (let i = 0; i < n; i++) targets.push(await startSshd());
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(source, `d${i % 6}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `f${i}.bin`), randomBytes(FILE_BYTES));
    }
  } catch (err) {
    await Promise.all(targets.map((t) => t.stop()));
    fs.rmSync(source, { recursive: true, force: true });
    throw err;
  }
  const targetDirs = targets.map((t, i) => `${t.homeDir}/soak-${tag}-${i}`);
  const serverIds: number[] = [];
  for (const [i, t] of targets.entries()) {
    const res = await client.request('setup', 'POST', '/api/servers', {
      body: {
        name: `soak-target-${i}`, host: t.host, port: t.port, username: t.username, private_key: t.privateKey,
        host_key_fingerprint: t.hostKeyFingerprint, target_path: targetDirs[i],
      },
      expect: [201],
    });
    if (!res) throw new Error(`registering sshd target ${i} failed: ${client.tally.kinds.get('setup')?.firstFailures.at(-1)}`);
    serverIds.push((res.body as { id: number }).id);
  }
  return {
    targets,
    serverIds,
    targetDirs,
    source,
    touch(round) {
      for (let k = 0; k < 3; k++) {
        const i = (round * 3 + k) % FILES;
        fs.writeFileSync(path.join(source, `d${i % 6}`, `f${i}.bin`), randomBytes(FILE_BYTES));
      }
    },
    async stop() {
      await Promise.all(targets.map((t) => t.stop()));
      for (const d of [source, ...targetDirs]) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}
