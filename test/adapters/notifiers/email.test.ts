/**
 * The email channel against a real SMTP server (smtp-server) on loopback with a self-signed
 * certificate for `localhost`: STARTTLS required and AUTH, implicit TLS, a server refusing
 * STARTTLS, a wrong password, the certificate check and the private-target rule on the relay host.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createNotifier, type NotifierDeps } from '../../../src/adapters/notifiers/channel-types.js';
import { type FakeSmtp, SMTP_PASSWORD, quotedPrintable, startFakeSmtp } from '../../helpers/fake-providers/index.js';
import { deps as baseDeps, message, notifierError } from './helpers.js';

const servers: FakeSmtp[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function smtp(o: Parameters<typeof startFakeSmtp>[0] = {}): Promise<FakeSmtp> {
  const s = await startFakeSmtp(o);
  servers.push(s);
  return s;
}

function deps(s: FakeSmtp, o: { allowPrivate?: boolean; timeoutMs?: number } = {}): NotifierDeps {
  return { ...baseDeps({ timeoutMs: 3000, ...o }), smtpTls: { ca: s.ca } };
}

const make = (cfg: Record<string, unknown>, d: NotifierDeps) => createNotifier({ id: 3, type: 'email', config: cfg }, d);

describe('email channel', () => {
  it('sends over STARTTLS with AUTH: subject, a text part and an HTML part to every recipient', async () => {
    const s = await smtp();
    await make(s.config, deps(s)).send(message());
    expect(s.received).toHaveLength(1);
    const mail = s.received[0];
    expect(mail.secure).toBe(true);
    expect(mail.user).toBe('alerts@example.com');
    expect(mail.from).toBe('alerts@example.com');
    expect(mail.to).toEqual(['ops@example.com', 'oncall@example.com']);
    expect(mail.raw).toMatch(/^Subject: CPU alert on web-1: 97%$/m);
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    const decoded = quotedPrintable(mail.raw);
    expect(decoded).toContain('CPU usage 97% (threshold 90%)');
    expect(decoded).toContain('<b>CPU alert on web-1: 97%</b>');
  });

  it('sends over implicit TLS', async () => {
    const s = await smtp({ secure: true });
    await make(s.config, deps(s)).send(message());
    expect(s.received[0]?.secure).toBe(true);
  });

  it('with security none sends in clear without trying STARTTLS (internal relays)', async () => {
    const s = await smtp({ allowInsecureAuth: true });
    await make({ ...s.config, security: 'none' }, deps(s)).send(message());
    expect(s.received[0]).toMatchObject({ secure: false, user: 'alerts@example.com' });
  });

  it('fails, not retryable, when STARTTLS is required and the server refuses it', async () => {
    // nodemailer tries STARTTLS even when not advertised, so the command itself must be refused.
    const s = await smtp({ hideSTARTTLS: true, disabledCommands: ['STARTTLS'], allowInsecureAuth: true });
    const err = await notifierError(make(s.config, deps(s)).send(message()));
    expect(err.retryable).toBe(false);
    expect(err.description).not.toContain(SMTP_PASSWORD);
    expect(s.received).toHaveLength(0);
  });

  it('reports a wrong password without the password, not retryable', async () => {
    const s = await smtp();
    const err = await notifierError(make({ ...s.config, password: 'wrong-pass-77' }, deps(s)).send(message()));
    expect(err.description).toContain('535');
    expect(err.description).not.toContain('wrong-pass-77');
    expect(err.retryable).toBe(false);
  });

  it('refuses a private relay host before connecting unless private targets are allowed', async () => {
    const s = await smtp();
    const err = await notifierError(make(s.config, deps(s, { allowPrivate: false })).send(message()));
    expect(err.description).toContain('non-public');
    expect(err.retryable).toBe(false);
    expect(s.received).toHaveLength(0);
  });

  it('cuts a relay that answers every command just inside the timeout once the whole send outlasts it (retryable)', async () => {
    // Each command's answer comes 600 ms late, inside the 1 s timeout nodemailer applies per
    // stage; three of them (MAIL and two RCPT) outlast it as a whole.
    const late = (cb: () => void) => setTimeout(cb, 600);
    const s = await smtp({
      allowInsecureAuth: true,
      authOptional: true,
      onMailFrom: (_a, _s, cb) => late(() => cb()),
      onRcptTo: (_a, _s, cb) => late(() => cb()),
    });
    const started = Date.now();
    const err = await notifierError(make({ ...s.config, security: 'none', username: undefined, password: undefined }, deps(s, { timeoutMs: 1000 })).send(message()));
    expect(Date.now() - started).toBeLessThan(1_800);
    expect(err.retryable).toBe(true);
    expect(err.description).toMatch(/within 1 s/);
    // The relay never got the message: a retry cannot deliver it twice.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(s.received).toHaveLength(0);
  });

  it('checks the certificate against the configured host name', async () => {
    const s = await smtp();
    const err = await notifierError(make(s.config, baseDeps({ timeoutMs: 3000 })).send(message()));
    expect(err.description.toLowerCase()).toMatch(/certificate|self.signed/);
    expect(err.retryable).toBe(false);
    expect(s.received).toHaveLength(0);
  });
});
