/**
 * The built service's bundle (scripts/bundle-server.mjs, into a scratch copy of dist/src): every
 * file a bundled module opens beside itself by name (the stat thread, the spawn helper) is there,
 * and the spawn helper runs from it with plain node: it starts a program and relays its output
 * and exit over the IPC channel, and ends when the channel closes.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpawnEvent, SpawnRequest } from '../../src/adapters/rsync/spawn-helper-main.js';
import { bundleServer } from '../../scripts/bundle-server.mjs';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
let root: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bundle-'));
  await run(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(root, 'dist')]);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(root, 'package.json'));
  await bundleServer(root);
}, 120_000);
afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('the service bundle', () => {
  it('has every file its modules open beside themselves', () => {
    const dir = path.join(root, 'dist/server');
    const code = fs.readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
    const named = [...code.matchAll(/new URL\(`\.\/([\w.-]+)\.\$\{/g)].map((m) => `${m[1]}.js`);
    expect(new Set(named)).toEqual(new Set(['stat-thread.js', 'spawn-helper-main.js']));
    for (const f of named) expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
  });

  it('runs the spawn helper with plain node', async () => {
    const helper = spawn(process.execPath, [path.join(root, 'dist/server/spawn-helper-main.js')], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    const events: SpawnEvent[] = [];
    const closed = new Promise<void>((resolve) => {
      helper.on('message', (e: SpawnEvent) => {
        events.push(e);
        if (e.type === 'close') resolve();
      });
    });
    const req: SpawnRequest = { id: 7, cmd: 'sh', args: ['-c', 'echo out; echo err >&2; exit 3'], env: { PATH: process.env.PATH }, stdoutPath: null };
    helper.send(req);
    await closed;
    expect(events[0]).toMatchObject({ id: 7, type: 'started' });
    expect(Buffer.from((events.find((e) => e.type === 'stdout') as { data: Uint8Array }).data).toString()).toBe('out\n');
    expect(Buffer.from((events.find((e) => e.type === 'stderr') as { data: Uint8Array }).data).toString()).toBe('err\n');
    expect(events.at(-1)).toEqual({ id: 7, type: 'close', code: 3, signal: null });
    const exited = new Promise((resolve) => helper.once('exit', resolve));
    helper.disconnect();
    expect(await exited).toBe(0);
  });
});
