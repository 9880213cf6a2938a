import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/targets.js';
import { CRON_INSTALL_COMMAND, HEALTH_LOG_PATH } from '../../../src/modules/patrol/patrol.service.js';
import { offlineEnv } from '../../platform/settings/fake-http.js';

describe.each(dbKinds())('ops-patrol on %s', (db) => {
  let t: TestApp;
  let h: { authorization: string };
  let envFile: string;
  beforeAll(async () => {
    t = await makeTestApp({ db, env: offlineEnv() });
    h = await t.auth();
    envFile = path.join(t.dataDir, 'patrol', 'messenger.env');
  });
  afterAll(async () => t?.close());

  const status = async () => (await t.app.inject({ url: '/api/settings/ops-patrol/status', headers: h })).json();
  const sync = () => t.app.inject({ method: 'POST', url: '/api/settings/ops-patrol/sync-messenger', headers: h });
  const put = (key: string, value: string) =>
    t.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers: h, payload: { value } });

  it('needs an administrator', async () => {
    expect((await t.app.inject({ url: '/api/settings/ops-patrol/status' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/settings/ops-patrol/sync-messenger' })).statusCode).toBe(401);
  });

  it('reports an unconfigured patrol', async () => {
    const s = await status();
    expect(s).toMatchObject({
      messenger_app_configured: false,
      messenger_layer3_ready: false,
      messenger_env_synced: false,
      db_fallback_enabled: true,
      cron_install_command: CRON_INSTALL_COMMAND,
      health_log_path: HEALTH_LOG_PATH,
    });
    expect(s.env_status).toMatchObject({ env_synced: false, env_file: envFile, env_exists: false });
  });

  it('sync-messenger is a 400 until token and chat id are configured', async () => {
    expect((await sync()).statusCode).toBe(400);
    await put('messenger_bot_token', '5:patrol-token');
    expect((await sync()).statusCode).toBe(400);
    expect((await status()).messenger_app_configured).toBe(false);
  });

  it('a PUT of both credentials syncs the env file; status follows the file', async () => {
    await put('messenger_chat_id', '-500');
    const s = await status();
    expect(s).toMatchObject({ messenger_app_configured: true, messenger_layer3_ready: true, messenger_env_synced: true });
    expect(s.env_status).toMatchObject({ env_synced: true, env_exists: true, token_set: true, chat_id_set: true });
    // Someone edits the file by hand: no longer in sync.
    fs.writeFileSync(envFile, "MESSENGER_BOT_TOKEN='other'\nMESSENGER_CHAT_ID='-500'\n", { mode: 0o600 });
    expect((await status()).messenger_env_synced).toBe(false);
  });

  it('sync-messenger rewrites the file (0600) and audits', async () => {
    const res = await sync();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ synced: true, messenger_layer3_ready: true });
    expect(body.env_status).toMatchObject({ env_synced: true, env_file: envFile });
    expect(fs.readFileSync(envFile, 'utf8')).toContain("MESSENGER_BOT_TOKEN='5:patrol-token'");
    expect(fs.statSync(envFile).mode & 0o777).toBe(0o600);
    expect((await status()).messenger_env_synced).toBe(true);
    const rows = await t.app.services.db.selectFrom('audit_log').selectAll().where('action', '=', 'sync_patrol_messenger').execute();
    expect(rows.length).toBe(1);
    expect(JSON.stringify(rows)).not.toContain('patrol-token');
  });

  it('a value with quotes is written safely for sh', async () => {
    await put('messenger_chat_id', "it's; rm -rf /");
    const text = fs.readFileSync(envFile, 'utf8');
    expect(text).toContain(`MESSENGER_CHAT_ID='it'\\''s; rm -rf /'`);
    expect((await status()).messenger_env_synced).toBe(true);
  });
});
