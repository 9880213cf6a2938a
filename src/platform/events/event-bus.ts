/**
 * One `publish(event)` that reaches the `/ws/alerts` sockets of every worker: events travel over
 * the cache's pub/sub. When the cache cannot publish, the event is still delivered locally.
 */
import type { Cache, Unsubscribe } from '../../adapters/cache/cache.js';
import { subscribeDurably } from '../../adapters/cache/durable-subscription.js';
import type { Logger } from '../../core/logger.js';
import type { LiveEvent } from './live-events.schemas.js';

export type { LiveEvent, LiveEventType } from './live-events.schemas.js';

export const EVENTS_CHANNEL = 'events';

type Listener = (event: LiveEvent) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();
  private unsubscribe: Unsubscribe | null = null;

  constructor(
    private readonly cache: Cache,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const onMessage = (raw: string) => {
      try {
        this.deliver(JSON.parse(raw) as LiveEvent);
      } catch {
        this.log.warn({}, 'ignored a malformed live event');
      }
    };
    this.unsubscribe = await subscribeDurably(this.cache, EVENTS_CHANNEL, onMessage, this.log);
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  async publish(event: LiveEvent): Promise<void> {
    try {
      await this.cache.publish(EVENTS_CHANNEL, JSON.stringify(event));
    } catch (err) {
      this.log.warn({ err, type: event.type }, 'cache publish failed; delivering locally only');
      this.deliver(event);
    }
  }

  /** Local subscribers (this worker's sockets). */
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private deliver(event: LiveEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (err) {
        this.log.warn({ err }, 'live event listener failed');
      }
    }
  }
}
