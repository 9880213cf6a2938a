/**
 * The numbered live messages of script runs. Each message gets the next `seq` of its run, is
 * written down, and only then published, in order: a page that has seen seq N asks for what
 * came after N and gets exactly what it missed. Only the process executing a run writes its
 * messages, so the numbering lives in memory for the run's lifetime.
 */
import type { Logger } from '../../core/logger.js';
import type { ScriptEvent } from '../../platform/events/live-events.schemas.js';
import type { ScriptRunsRepository } from './script-runs.repository.js';

type Draft<E> = E extends ScriptEvent ? Omit<E, 'run_id' | 'seq'> : never;
/** A run message before the journal numbers it. */
export type ScriptEventDraft = Draft<ScriptEvent>;

interface RunState {
  seq: number;
  chain: Promise<void>;
}

export class ScriptJournal {
  private readonly runs = new Map<string, RunState>();

  constructor(
    private readonly d: {
      repo: ScriptRunsRepository;
      events: { publish(event: ScriptEvent): Promise<void> };
      log: Logger;
    },
  ) {}

  /** Numbers, stores and publishes `event`; resolves once it is published. Never throws. */
  record(runId: string, event: ScriptEventDraft): Promise<void> {
    let state = this.runs.get(runId);
    if (!state) {
      state = { seq: 0, chain: Promise.resolve() };
      this.runs.set(runId, state);
    }
    const st = state;
    st.chain = st.chain.then(async () => {
      const seq = ++st.seq;
      const message = { ...event, run_id: runId, seq } as ScriptEvent;
      try {
        await this.d.repo.insertEvent(runId, seq, JSON.stringify(message), new Date().toISOString()).catch((err: unknown) => {
          // The live message still goes out; only a later replay will miss it.
          this.d.log.warn({ err, runId, seq }, 'script event not stored');
        });
        await this.d.events.publish(message);
      } catch (err) {
        this.d.log.warn({ err, runId }, 'script event not published');
      }
    });
    return st.chain;
  }

  /** After a run's last message: waits for it to be out and forgets the run's numbering. */
  async close(runId: string): Promise<void> {
    await this.runs.get(runId)?.chain;
    this.runs.delete(runId);
  }

  async since(runId: string, after: number, limit: number): Promise<ScriptEvent[]> {
    return (await this.d.repo.eventsSince(runId, after, limit)).map((r) => JSON.parse(r.payload) as ScriptEvent);
  }
}
