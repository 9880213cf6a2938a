/**
 * Stand-ins for the two parts other helpers write (until they are merged): an in-memory channel
 * source and a webhook-like notifier factory that posts the message as JSON with undici to a
 * loopback fake (4xx other than 429: not retryable; anything else that is not 2xx: retryable).
 */
import { request } from 'undici';
import { NotifierError, type NotificationMessage, type Notifier } from '../../../src/adapters/notifiers/notifier.js';
import type { ChannelEvent, ChannelSource, DeliverableChannel } from '../../../src/platform/notifications/channel-contract.js';

export function memorySource(channels: DeliverableChannel[]): ChannelSource {
  return {
    deliverable: async () => channels,
    byId: async (id) => channels.find((c) => c.id === id) ?? null,
  };
}

export function webhookChannel(id: number, url: string, events: ChannelEvent[], tags: string[] = []): DeliverableChannel {
  return { id, name: `hook-${id}`, type: 'webhook', config: { url }, events, tags };
}

export function postingNotifier(channel: DeliverableChannel): Notifier {
  const name = `${channel.type}:${channel.id}`;
  return {
    channel: name,
    async send(m: NotificationMessage) {
      let status: number;
      try {
        const res = await request(String(channel.config.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: m.title, text: m.text, kind: m.kind, severity: m.severity }),
          headersTimeout: 10_000,
          bodyTimeout: 10_000,
        });
        status = res.statusCode;
        await res.body.dump();
      } catch (err) {
        throw new NotifierError(name, `request failed: ${(err as Error).message}`);
      }
      if (status >= 200 && status < 300) return;
      throw new NotifierError(name, `HTTP ${status}`, !(status >= 400 && status < 500 && status !== 429));
    },
  };
}
