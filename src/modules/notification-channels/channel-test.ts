/**
 * The "send test" outcome as the API answers it. The sender is injected (the notification
 * platform's delivery of one test message): it resolves when the provider accepted the message,
 * rejects with a `NotifierError` when the provider refused it or could not be reached (a 502
 * carrying the provider's own text, so the operator sees why), or with a domain error of its own
 * (e.g. a 400 `channel_private_target` when the guarded request refuses the resolved address),
 * which passes through unchanged.
 */
import { SECRET_FIELDS } from '../../adapters/notifiers/channel-configs.js';
import { NotifierError } from '../../adapters/notifiers/notifier.js';
import { BadGatewayError, DomainError } from '../../core/errors.js';
import type { DeliverableChannel } from '../../platform/notifications/channel-contract.js';

export type SendTest = (channel: DeliverableChannel) => Promise<void>;

export async function sendChannelTest(send: SendTest, channel: DeliverableChannel): Promise<void> {
  try {
    await send(channel);
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (err instanceof NotifierError) throw new BadGatewayError(scrub(err.description, channel), 'channel_delivery_failed');
    // Anything else may carry a URL with a key in it: the client gets a fixed text, the log the rest.
    throw new BadGatewayError('The channel could not deliver the test message', 'channel_delivery_failed');
  }
}

/** A provider that echoes the request back must not leak a stored secret through the error text. */
function scrub(text: string, channel: DeliverableChannel): string {
  let out = text;
  for (const field of SECRET_FIELDS[channel.type]) {
    const v = channel.config[field];
    if (typeof v === 'string' && v.length >= 4) out = out.split(v).join('********');
  }
  return out;
}
