/**
 * `POST /api/servers/{id}/install-agent`: copies the agent and a fresh token to the server over
 * SSH and starts it (systemd, else cron, else a detached process; see AGENT_SCRIPT --install).
 * Token and script travel on the command's stdin, so the token is never on a command line
 * anyone could see in `ps`; on the server it is written to a 0600 file.
 */
import { shellQuote } from '../../adapters/ssh/quote.js';
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { Actor } from '../../core/actor.js';
import { BadRequestError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { RuntimeSettings } from '../../platform/settings/runtime-settings.js';
import type { ServersService } from '../servers/index.js';
import { AGENT_SCRIPT } from './agent-script.js';
import type { AgentService } from './agent.service.js';
import type { InstallResult } from './agent.schemas.js';

export const INSTALL_TIMEOUT_MS = 60_000;

export interface AgentInstallerDeps {
  agent: Pick<AgentService, 'issueToken' | 'restoreToken'>;
  servers: Pick<ServersService, 'get' | 'connectionFor'>;
  ssh: Pick<SshPool, 'exec'>;
  settings: RuntimeSettings;
  audit: AuditService;
  log: Logger;
}

// Plain http(s) base: no credentials, query, fragment, spaces, quotes or `%` (systemd and cron
// give `%` a meaning of their own), so it can go into a unit file and a crontab line as is.
const BASE_URL = /^https?:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?(\/[A-Za-z0-9._~/-]*)?$/;

/** The service root the agent posts to (`<root>/api/agent/heartbeat`); a trailing `/api` is dropped. */
export function agentBaseUrl(raw: string): string {
  const v = raw.trim().replace(/\/+$/, '');
  if (!BASE_URL.test(v) || v.length > 500) {
    throw new BadRequestError('api_base_url must be an http(s) URL without credentials, query or spaces, e.g. https://fleet.example.com', 'api_base_url_invalid');
  }
  return v.replace(/\/api$/, '');
}

function remoteInstaller(url: string): string {
  return [
    'set -e',
    'IFS= read -r token',
    'if [ "$(id -u)" = 0 ]; then dir=/opt/fleet-agent; else dir="$HOME/.fleet-agent"; fi',
    'umask 077',
    'mkdir -p "$dir"',
    'chmod 700 "$dir"',
    'cat > "$dir/agent.sh.new"',
    'mv "$dir/agent.sh.new" "$dir/agent.sh"',
    `printf '%s\\n' "$token" > "$dir/token.new"`,
    'mv "$dir/token.new" "$dir/token"',
    'chmod 600 "$dir/token"',
    `exec /bin/sh "$dir/agent.sh" --install --dir "$dir" --url ${shellQuote(url)} --token-file "$dir/token"`,
  ].join('\n');
}

export class AgentInstaller {
  constructor(private readonly d: AgentInstallerDeps) {}

  async install(actor: Actor, serverId: number, body: { api_base_url?: string | null } = {}): Promise<InstallResult> {
    const row = await this.d.servers.get(serverId);
    const raw = body.api_base_url?.trim() || this.d.settings.get('api_base_url')?.trim();
    if (!raw) {
      throw new BadRequestError('No api_base_url: pass it in the body or set the api_base_url setting (the URL agents post to)', 'api_base_url_missing');
    }
    const url = agentBaseUrl(raw);
    const target = await this.d.servers.connectionFor(row.id);

    // Stored before the agent starts, so its first heartbeat is accepted; put back on failure.
    const issued = await this.d.agent.issueToken(serverId);
    let out: { stdout: string; stderr: string; exitCode: number | null; timedOut: boolean };
    try {
      out = await this.d.ssh.exec(target, remoteInstaller(url), {
        timeoutMs: INSTALL_TIMEOUT_MS,
        stdin: `${issued.token}\n${AGENT_SCRIPT}`,
      });
    } catch (err) {
      await this.fail(actor, serverId, issued, err instanceof Error ? err.message : 'SSH connection failed');
      throw err;
    }
    const m = /fleet-agent installed: method=(\S+) dir=(.+)$/m.exec(out.stdout);
    if (out.timedOut || out.exitCode !== 0 || !m) {
      const why = out.timedOut
        ? `timed out after ${INSTALL_TIMEOUT_MS / 1000} s`
        : `exit ${out.exitCode ?? 'signal'}${out.stderr.trim() ? `: ${out.stderr.trim().slice(0, 300)}` : ''}`;
      await this.fail(actor, serverId, issued, why);
      throw new BadRequestError(`Agent installation on ${row.name} failed (${why})`, 'agent_install_failed');
    }
    const result: InstallResult = {
      success: true,
      server_id: serverId,
      method: m[1],
      install_dir: m[2].trim(),
      api_base_url: url,
    };
    await this.d.audit.record(actor, 'install_agent', {
      type: 'server',
      id: serverId,
      detail: `method=${result.method} url=${url}`,
    });
    return result;
  }

  private async fail(
    actor: Actor,
    serverId: number,
    issued: { hash: string; previous: string | null },
    why: string,
  ): Promise<void> {
    await this.d.agent.restoreToken(serverId, issued.hash, issued.previous).catch((err: unknown) =>
      this.d.log.warn({ serverId, err }, 'could not restore the previous agent token'),
    );
    await this.d.audit.record(actor, 'install_agent', { type: 'server', id: serverId, detail: `failed: ${why}`.slice(0, 500) });
  }
}
