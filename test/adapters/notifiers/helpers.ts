/** What the channel tests share: dependencies pointing at loopback fakes, a message, and failure capture. */
import { expect } from 'vitest';
import { createNotifierDeps, type NotifierDeps } from '../../../src/adapters/notifiers/channel-types.js';
import { NotifierError, type NotificationMessage } from '../../../src/adapters/notifiers/notifier.js';

export const resolve = async (host: string): Promise<string[]> => {
  if (host === 'localhost') return ['127.0.0.1'];
  throw new Error(`ENOTFOUND ${host}`);
};

export function deps(o: { allowPrivate?: boolean; timeoutMs?: number } = {}): NotifierDeps {
  return createNotifierDeps({ resolve, allowPrivate: o.allowPrivate ?? true, timeoutMs: o.timeoutMs ?? 2000 });
}

export function message(o: Partial<NotificationMessage> = {}): NotificationMessage {
  return {
    title: 'CPU alert on web-1: 97%',
    text: 'CPU usage 97% (threshold 90%)\nServer: web-1',
    markdown: '**CPU usage** 97% (threshold 90%)\n- Server: `web-1`',
    html: '<b>CPU alert on web-1: 97%</b>\nCPU usage 97% (threshold 90%)',
    kind: 'alert_cpu',
    severity: 'warning',
    ...o,
  };
}

export async function notifierError(p: Promise<unknown>): Promise<NotifierError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(NotifierError);
    return err as NotifierError;
  }
  throw new Error('expected a NotifierError');
}
