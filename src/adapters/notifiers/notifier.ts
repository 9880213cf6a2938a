/**
 * One outbound notification channel. Each channel type lives in its own file beside this one;
 * `channel-types.ts` lists them with their configuration schema, and the notification platform
 * (`src/platform/notifications/`) decides when, where and how often to send.
 */

/** How urgent a message is; channels with priorities (ntfy, Gotify, Bark) map it to theirs. */
export type NotificationSeverity = 'info' | 'warning' | 'critical';

/**
 * One notification rendered once, in every form a channel may need; a channel picks the form its
 * provider supports (Markdown where it renders Markdown, HTML for the messenger bot and email,
 * plain text otherwise). Built by the one message format module, never by a channel.
 */
export interface NotificationMessage {
  /** One line without markup, e.g. "CPU alert on web-1: 97%". */
  title: string;
  /** The body without markup (title not repeated). */
  text: string;
  /** The body as Markdown (bold, inline code, lists; title not repeated). */
  markdown: string;
  /** The whole message as the small HTML subset the messenger bot accepts (b, i, code, pre, a). */
  html: string;
  /** The event kind it reports (e.g. `alert_cpu`, `test`), for channels that tag messages. */
  kind: string;
  severity: NotificationSeverity;
}

export interface Notifier {
  /** A short name for logs, e.g. `messenger`, `messenger_offline` or `dingtalk:3`. */
  readonly channel: string;
  /** Delivers one message; rejects with `NotifierError` when the provider refuses it or cannot be reached. */
  send(message: NotificationMessage): Promise<void>;
}

/** A channel refused or could not be reached; the message never carries credentials. */
export class NotifierError extends Error {
  constructor(
    readonly channel: string,
    /** The provider's own error text where it gave one (scrubbed of secrets), else what failed. */
    readonly description: string,
    /** False when trying again cannot help (bad token, refused target, malformed config). */
    readonly retryable = true,
  ) {
    super(description);
    this.name = 'NotifierError';
  }
}
