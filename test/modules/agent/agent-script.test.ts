/**
 * The agent's `--install` cron branch, run for real on this machine. This machine has no cron
 * daemon, so a stand-in `crontab` (a file behind `-l` and `-`) comes first on PATH; what the
 * agent writes into the table is then run as cron would run it. (The SSH install test covers the
 * background branch; the systemd branch needs root on a systemd host.)
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';
import { getServer, monitoredServer } from './agent-helpers.js';

const run = promisify(execFile);
const systemdHost = fs.existsSync('/run/systemd/system') && process.getuid?.() === 0;

const FAKE_CRONTAB = `#!/bin/sh
case "$1" in
  -l) [ -f "$FAKE_CRONTAB" ] || { echo "no crontab for $(id -un)" >&2; exit 1; }; cat "$FAKE_CRONTAB" ;;
  -) cat >"$FAKE_CRONTAB.new" && mv "$FAKE_CRONTAB.new" "$FAKE_CRONTAB" ;;
  *) echo "fake crontab: unsupported $*" >&2; exit 2 ;;
esac
`;

describe.skipIf(systemdHost)('agent --install from cron', () => {
  let t: TestApp;
  let url: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-agent-cron-'));
  const bin = path.join(tmp, 'bin');
  const table = path.join(tmp, 'crontab');
  // A space and a quote in the install directory: the cron line must quote it.
  const dir = path.join(tmp, "agent dir's");
  const script = path.join(tmp, 'install.sh');

  beforeAll(async () => {
    t = await makeTestApp({ env: offlineEnv() });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'crontab'), FAKE_CRONTAB, { mode: 0o755 });
    fs.writeFileSync(script, (await t.app.inject({ url: '/api/agent/install.sh' })).body);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const install = (token: string) =>
    run('sh', [script, '--install', '--dir', dir, '--url', url], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, FAKE_CRONTAB: table, FLEET_AGENT_TOKEN: token },
      timeout: 20_000,
    });
  const agentLines = () => fs.readFileSync(table, 'utf8').split('\n').filter((l) => l.endsWith('# fleet-agent'));

  it('replaces an earlier agent line, keeps the others, and the line it writes posts heartbeats', async () => {
    fs.writeFileSync(table, "0 3 * * * /usr/local/bin/backup.sh\n* * * * * /bin/sh '/old/agent.sh' --cron # fleet-agent\n");
    const { id, token } = await monitoredServer(t, 'cron-agent');

    const out = await install(token);
    expect(out.stdout.trim()).toBe(`fleet-agent installed: method=cron dir=${dir}`);
    expect(fs.readFileSync(table, 'utf8')).toContain('0 3 * * * /usr/local/bin/backup.sh\n');
    const [line, ...others] = agentLines();
    expect(others).toEqual([]);
    expect(line).toMatch(/^\* \* \* \* \* \/bin\/sh /);
    expect(line).not.toContain(token);
    expect((fs.statSync(path.join(dir, 'token')).mode & 0o777).toString(8)).toBe('600');

    // What cron would run, minus the 30 s wait between its two beats.
    const command = line.replace(/^(\S+\s+){5}/, '').replace(' --cron ', ' --once ');
    await run('sh', ['-c', command], { timeout: 20_000 });
    expect((await getServer(t, id)).status).toBe('online');

    await install(token);
    expect(agentLines()).toEqual([line]);
  });
});
