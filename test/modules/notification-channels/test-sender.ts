/**
 * A test-message sender for the channels API tests: posts the message as JSON to the channel's
 * `url` (a loopback fake) through undici, and rejects as a channel does — `NotifierError` with the
 * provider's own text on a non-2xx answer or a connection failure.
 */
import { request } from 'undici';
import { NotifierError } from '../../../src/adapters/notifiers/notifier.js';
import type { DeliverableChannel } from '../../../src/platform/notifications/channel-contract.js';

export async function postToChannelUrl(channel: DeliverableChannel): Promise<void> {
  const name = `${channel.type}:${channel.id}`;
  const res = await request(String(channel.config.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-secret': String(channel.config.secret ?? '') },
    body: JSON.stringify({ title: 'Test message', kind: 'test', channel: channel.name }),
  }).catch((err: Error) => {
    throw new NotifierError(name, `connection failed: ${err.message}`);
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new NotifierError(name, `HTTP ${res.statusCode}: ${text}`);
}
