/**
 * The service is killed with SIGKILL during an SFTP upload (`POST /api/sync/upload`) that replaces
 * an existing remote file, then started again. The file under its final name is the previous
 * one, whole: the upload was going to a hidden temporary name in the same directory, renamed into
 * place only once complete. After the restart the same upload goes through and replaces it.
 * (What a SIGKILL leaves is the hidden `.<name>.<hex>.fleet-part`; nothing of the service runs to
 * remove it, and it is never the file anyone asked for.)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { until } from '../modules/push/push-helpers.js';
import { CrashScope, restartBudgetMs, type Service } from './crash-helpers.js';

const sshd = inject('sshd');
const crash = new CrashScope();
const name = `crash-upload-${crypto.randomBytes(4).toString('hex')}.bin`;
const finalPath = path.join(sshd.homeDir, name);
afterAll(() => {
  crash.cleanup();
  for (const n of mine()) fs.rmSync(path.join(sshd.homeDir, n), { force: true });
});

const BOUNDARY = '----crash-upload-boundary';
const head = (serverId: number) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="server_id"\r\n\r\n${serverId}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="remote_path"\r\n\r\n${sshd.homeDir}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

function request(s: Service): http.ClientRequest {
  const req = http.request({
    host: '127.0.0.1', port: s.port, method: 'POST', path: '/api/sync/upload',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
  req.on('error', () => {});
  return req;
}

async function uploadWhole(s: Service, serverId: number, content: Buffer): Promise<number> {
  const req = request(s);
  const answered = new Promise<number>((resolve) =>
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }),
  );
  req.end(Buffer.concat([head(serverId), content, tail]));
  return answered;
}

const mine = () => fs.readdirSync(sshd.homeDir).filter((n) => n.includes(name));

describe('SIGKILL during an SFTP upload', () => {
  it('leaves the previous file whole under its name, never a partial one; the upload works after the restart', async () => {
    const env = { DATA_DIR: crash.tempDir() };
    const first = await crash.start(env);
    const created = await first.call('POST', '/api/servers', {
      name: 'crash-upload', host: sshd.host, port: sshd.port, username: sshd.username, private_key: sshd.privateKey,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const serverId = created.json.id as number;
    const old = crypto.randomBytes(100_000);
    expect(await uploadWhole(first, serverId, old)).toBe(200);
    expect(fs.readFileSync(finalPath).equals(old)).toBe(true);

    // A new version is on its way, streamed: part of it is on the server when the service dies.
    const req = request(first);
    req.write(head(serverId));
    const temp = await until(async () => {
      req.write(crypto.randomBytes(256 * 1024));
      await new Promise((r) => setTimeout(r, 20));
      const t = mine().find((n) => n.endsWith('.fleet-part'));
      return t && fs.statSync(path.join(sshd.homeDir, t)).size > 512 * 1024 && t;
    }, 30_000, 0);
    expect(temp).toMatch(new RegExp(`^\\.${name.replace(/\./g, '\\.')}\\.[0-9a-f]{8}\\.fleet-part$`));
    expect(fs.readFileSync(finalPath).equals(old)).toBe(true);
    await crash.kill(first);
    req.destroy();
    expect(fs.readFileSync(finalPath).equals(old)).toBe(true);

    const second = await crash.start(env);
    console.log(`SIGKILL during an SFTP upload: first start ${first.startMs} ms, restart healthy in ${second.startMs} ms`);
    expect(second.startMs).toBeLessThan(restartBudgetMs(first.startMs));
    expect(fs.readFileSync(finalPath).equals(old)).toBe(true);
    const fresh = crypto.randomBytes(300_000);
    expect(await uploadWhole(second, serverId, fresh)).toBe(200);
    expect(fs.readFileSync(finalPath).equals(fresh)).toBe(true);
    // Only the killed upload's hidden temporary file is left beside it.
    expect(mine().sort()).toEqual([temp, name].sort());
  }, 90_000);
});
