/**
 * The env file the host patrol script sources for its messenger credentials
 * (`DATA_DIR/patrol/messenger.env`, mode 0600). The script runs outside this service, so the
 * credentials are written in plain form; the directory and file are readable by the owner only.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { nowIso } from '../../core/time.js';
import type { EnvStatus } from './patrol.schemas.js';

export const PATROL_ENV_TOKEN = 'MESSENGER_BOT_TOKEN';
export const PATROL_ENV_CHAT = 'MESSENGER_CHAT_ID';

/** Single-quoted for POSIX sh, so `source`-ing the file can never run anything. */
function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function shUnquote(raw: string): string {
  const v = raw.trim();
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/'\\''/g, "'");
  return v;
}

export class PatrolEnvFile {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'patrol', 'messenger.env');
  }

  async write(token: string, chatId: string): Promise<void> {
    const dir = path.dirname(this.file);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const body =
      `# Written by Fleet Admin at ${nowIso()}; sourced by the host patrol script.\n` +
      `${PATROL_ENV_TOKEN}=${shQuote(token)}\n${PATROL_ENV_CHAT}=${shQuote(chatId)}\n`;
    // Written beside the target and renamed, so the script never reads a half-written file.
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await fs.writeFile(tmp, body, { mode: 0o600, flag: 'wx' });
      await fs.chmod(tmp, 0o600);
      await fs.rename(tmp, this.file);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => {});
      throw err;
    }
  }

  async read(): Promise<{ values: Record<string, string>; mtime: Date } | null> {
    try {
      const [text, st] = await Promise.all([fs.readFile(this.file, 'utf8'), fs.stat(this.file)]);
      const values: Record<string, string> = {};
      for (const line of text.split('\n')) {
        const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
        if (m) values[m[1]] = shUnquote(m[2]);
      }
      return { values, mtime: st.mtime };
    } catch {
      return null;
    }
  }

  /** Whether the file holds exactly the given credentials. */
  async status(token: string | null, chatId: string | null): Promise<EnvStatus> {
    const current = await this.read();
    const fileToken = current?.values[PATROL_ENV_TOKEN] ?? '';
    const fileChat = current?.values[PATROL_ENV_CHAT] ?? '';
    return {
      env_synced: Boolean(current && token && chatId && fileToken === token && fileChat === chatId),
      env_file: this.file,
      env_exists: current !== null,
      token_set: fileToken !== '',
      chat_id_set: fileChat !== '',
      updated_at: current ? current.mtime.toISOString() : null,
    };
  }
}
