import type { Client, ConnectConfig } from 'ssh2';
import { requireOnUse } from '../../core/require-on-use.js';
import { HostKeyMismatchError, connectionClosedError, mapConnectError } from './errors.js';
import { normalizeFingerprint, parseHostKey } from './host-key.js';
import type { HostKeyInfo, SshTarget } from './types.js';

export interface OpenConnectionOptions {
  connectTimeoutMs: number;
  keepaliveIntervalMs: number;
}

export interface OpenedConnection {
  client: Client;
  hostKey: HostKeyInfo;
}

/**
 * Connect and authenticate one ssh2 Client, verifying the host key against the target's pin.
 * Resolves only once the session is ready; every failure is an SshConnectionError.
 */
export function openConnection(target: SshTarget, opts: OpenConnectionOptions): Promise<OpenedConnection> {
  const ep = { host: target.host, port: target.port, username: target.username };
  const pinned = target.hostKeyFingerprint ? normalizeFingerprint(target.hostKeyFingerprint) : null;

  return new Promise<OpenedConnection>((resolve, reject) => {
    // ssh2 loads on the first connection, not at start (its WebAssembly costs ~10 MB of RSS).
    const { Client: SshClient } = requireOnUse('ssh2') as typeof import('ssh2');
    const client = new SshClient();
    let hostKey: HostKeyInfo | null = null;
    let mismatch: HostKeyMismatchError | null = null;
    let settled = false;

    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      client.removeListener('ready', onReady);
      // Late errors (the socket closing after a failed handshake) must not become unhandled.
      client.on('error', () => {});
      client.destroy();
      reject(mismatch ?? mapConnectError(err, ep));
    };
    const onReady = (): void => {
      if (settled) return;
      settled = true;
      client.removeListener('error', fail);
      client.removeListener('close', onEarlyClose);
      resolve({ client, hostKey: hostKey! });
    };
    const onEarlyClose = (): void => fail(connectionClosedError(ep));

    client.once('ready', onReady);
    client.on('error', fail);
    client.once('close', onEarlyClose);
    if (target.auth.type === 'password') {
      const password = target.auth.password;
      // Servers with PasswordAuthentication off but PAM on only offer keyboard-interactive.
      client.on('keyboard-interactive', (_name, _instr, _lang, prompts, finish) => {
        finish(prompts.map(() => password));
      });
    }

    const config: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: target.username,
      readyTimeout: opts.connectTimeoutMs,
      keepaliveInterval: opts.keepaliveIntervalMs,
      keepaliveCountMax: 3,
      hostVerifier: (key: Buffer): boolean => {
        hostKey = parseHostKey(key);
        if (pinned && hostKey.fingerprint !== pinned) {
          mismatch = new HostKeyMismatchError(target.host, target.port, pinned, hostKey.fingerprint);
          return false;
        }
        return true;
      },
    };
    if (target.auth.type === 'key') {
      config.privateKey = target.auth.privateKey;
      if (target.auth.passphrase !== undefined) config.passphrase = target.auth.passphrase;
    } else {
      config.password = target.auth.password;
      config.tryKeyboard = true;
    }

    try {
      client.connect(config);
      // Commands are many small request/response exchanges: Nagle + delayed ACK would add ~40 ms to each.
      client.setNoDelay(true);
    } catch (err) {
      // ssh2 parses the private key synchronously inside connect().
      fail(err);
    }
  });
}
