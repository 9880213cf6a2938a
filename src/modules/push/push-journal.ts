/**
 * The numbered live messages of push batches. Each message gets the next `seq` of its batch, is
 * written down, and only then published on the live socket, in order: a page that has seen seq N
 * asks for everything after N and gets exactly what it missed, no gaps, no doubles. One process
 * at a time writes a batch's messages (the one holding its lease); a process that takes a batch
 * over continues after the highest stored number.
 */
import type { Logger } from '../../core/logger.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { PushEvent } from '../../platform/events/live-events.schemas.js';

/** A batch message before the journal numbers it. */
export type PushEventDraft = Omit<PushEvent, 'batch_id' | 'seq'>;
import type { PushEventsRepository } from './push-events.repository.js';

/** How long a batch's messages can be replayed. */
export const JOURNAL_RETENTION_MS = 7 * 24 * 3600_000;

interface BatchState {
  seq: number | null;
  chain: Promise<void>;
}

export class PushJournal {
  private readonly batches = new Map<string, BatchState>();

  constructor(
    private readonly d: {
      repo: PushEventsRepository;
      events: Pick<EventBus, 'publish'>;
      log: Logger;
    },
  ) {}

  /** Numbers, stores and publishes `event`; resolves once it is published. Never throws. */
  record(batchId: string, event: PushEventDraft): Promise<void> {
    let st = this.batches.get(batchId);
    if (!st) {
      st = { seq: null, chain: Promise.resolve() };
      this.batches.set(batchId, st);
    }
    const state = st;
    state.chain = state.chain.then(async () => {
      try {
        state.seq ??= await this.d.repo.maxSeq(batchId);
        const seq = ++state.seq;
        const message: PushEvent = { ...event, batch_id: batchId, seq };
        await this.d.repo.insert(batchId, seq, JSON.stringify(message), new Date().toISOString()).catch((err: unknown) => {
          // The live message still goes out; only a later replay will miss it.
          this.d.log.warn({ err, batchId, seq }, 'push event not stored');
        });
        await this.d.events.publish(message);
      } catch (err) {
        this.d.log.warn({ err, batchId }, 'push event not published');
      }
    });
    return state.chain;
  }

  /** After a batch's last message: waits for it to be out and forgets the batch's numbering. */
  async close(batchId: string): Promise<void> {
    await this.batches.get(batchId)?.chain;
    this.batches.delete(batchId);
  }

  /** Messages after `after`, in order, at most `limit`. */
  async since(batchId: string, after: number, limit: number): Promise<PushEvent[]> {
    return (await this.d.repo.since(batchId, after, limit)).map((r) => JSON.parse(r.payload) as PushEvent);
  }

  /** Drops messages older than the retention period. */
  prune(now = Date.now()): Promise<number> {
    return this.d.repo.deleteOlderThan(new Date(now - JOURNAL_RETENTION_MS).toISOString());
  }
}
