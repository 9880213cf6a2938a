/**
 * A real SMTP server (smtp-server) on 127.0.0.1 for the email channel: AUTH PLAIN/LOGIN for one
 * account, STARTTLS (or implicit TLS with `secure: true`) with a self-signed certificate for
 * `localhost` made by openssl once per process. Channels reach it with host `localhost` (a resolver
 * mapping it to 127.0.0.1), private targets allowed and `smtpTls: { ca: fake.ca }`.
 *
 *   const smtp = await startFakeSmtp();
 *   smtp.config      // a valid email channel config (security starttls, the account, two recipients)
 *   smtp.received    // every message: raw MIME, authenticated user, TLS or not, envelope
 *   await smtp.close()
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { ChannelConfig } from '../../../src/adapters/notifiers/channel-configs.js';

export const SMTP_USER = 'alerts@example.com';
export const SMTP_PASSWORD = 'smtp-pass-9';

export interface ReceivedMail {
  raw: string;
  user: string | undefined;
  secure: boolean;
  from: string | undefined;
  to: string[];
}

let pair: { key: string; cert: string } | null = null;

/** A self-signed key and certificate for `localhost`, made once per process. */
export function localhostCertificate(): { key: string; cert: string } {
  if (pair) return pair;
  const dir = mkdtempSync(path.join(tmpdir(), 'smtp-cert-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'].concat([
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ]),
      { stdio: 'ignore' },
    );
    pair = { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
    return pair;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface FakeSmtp {
  port: number;
  /** The certificate to trust (pass as `smtpTls: { ca }`). */
  ca: string;
  config: ChannelConfig<'email'>;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** `o` goes to smtp-server as is (e.g. `secure: true`, `disabledCommands: ['STARTTLS']`). */
export async function startFakeSmtp(o: Partial<SMTPServerOptions> = {}): Promise<FakeSmtp> {
  const { key, cert } = localhostCertificate();
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    key,
    cert,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, cb) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) cb(null, { user: auth.username });
      else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          raw: Buffer.concat(chunks).toString('utf8'),
          user: session.user as string | undefined,
          secure: session.secure,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        cb();
      });
    },
    logger: false,
    ...o,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    ca: cert,
    received,
    config: {
      host: 'localhost',
      port,
      security: o.secure ? 'tls' : 'starttls',
      username: SMTP_USER,
      password: SMTP_PASSWORD,
      from: `Fleet Admin <${SMTP_USER}>`,
      to: ['ops@example.com', 'oncall@example.com'],
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Undoes quoted-printable soft breaks and escapes (the parts nodemailer encodes so). */
export function quotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
