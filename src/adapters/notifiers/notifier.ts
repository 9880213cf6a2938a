/**
 * One outbound notification channel. Each channel lives in its own file beside this one
 * (`messenger-notifier.ts` today); `NotificationService` decides when and where to send.
 */
export interface Notifier {
  /** A short name for logs, e.g. `messenger` or `messenger_offline`. */
  readonly channel: string;
  /** Delivers one HTML message; rejects with `NotifierError` when the channel refuses it. */
  send(html: string): Promise<void>;
}

/** A channel refused or could not be reached; the message never carries credentials. */
export class NotifierError extends Error {
  constructor(
    readonly channel: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'NotifierError';
  }
}
