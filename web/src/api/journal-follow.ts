/**
 * Follows the journal of one piece of work (a push batch, a script run): every message the work
 * publishes is numbered (`seq`, from 1 without gaps) and stored before it is sent, so the page
 * reads the journal from where it is and takes the live socket's messages on top. It reads the
 * journal again on open, after a gap in the socket's numbers and after the socket reconnects; one
 * read runs at a time (a request meanwhile reads once more after it). Applying the same message
 * twice must be harmless: the caller's reducer drops what it already has.
 */
import type { LiveMessage } from './socket';
import { liveSocket } from './socket';

export interface JournalPage<E> {
  events: E[];
  last_seq: number;
  more: boolean;
  status: string;
}

export interface Journal<E extends { seq: number }> {
  /** The work itself (a batch, a run), read first; its answer seeds the page. */
  open(): Promise<void>;
  /** The journal after `after`. */
  page(after: number): Promise<JournalPage<E>>;
  /** The socket's message as this journal's event, or null when it belongs elsewhere. */
  pick(m: LiveMessage): E | null;
  apply(events: E[], fromJournal: boolean): void;
  /** A live event that says the work is over. */
  isFinal(e: E): boolean;
  /** The work is over and its journal read to the end (or the live final event came): read the final state. */
  ended(): Promise<void>;
  fail(err: unknown): void;
}

/** Starts following; the answer stops it (nothing is applied after). */
export function followJournal<E extends { seq: number }>(j: Journal<E>): () => void {
  let stopped = false;
  let lastSeq = 0;
  let reading: Promise<void> | null = null;
  let again = false;

  const catchUp = (): Promise<void> => {
    if (reading !== null) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        for (let more = true; more && !stopped; ) {
          const page = await j.page(lastSeq);
          if (stopped) return;
          lastSeq = Math.max(lastSeq, page.last_seq);
          j.apply(page.events, true);
          more = page.more;
          if (page.status !== 'running' && !more) await j.ended();
        }
      } while (again && !stopped);
    })()
      .catch((err: unknown) => {
        if (!stopped) j.fail(err);
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  const offMessage = liveSocket.onMessage((m) => {
    const e = j.pick(m);
    if (!e || e.seq <= lastSeq) return;
    j.apply([e], false);
    if (e.seq === lastSeq + 1) lastSeq = e.seq;
    else void catchUp(); // a gap: the journal has what the socket missed
    if (j.isFinal(e)) void j.ended().catch(() => {});
  });
  let wasDown = false;
  const offStatus = liveSocket.onStatus((st) => {
    if (st !== 'connected') wasDown = true;
    else if (wasDown) {
      wasDown = false;
      void catchUp();
    }
  });
  void j
    .open()
    .then(() => (stopped ? undefined : catchUp()))
    .catch((err: unknown) => {
      if (!stopped) j.fail(err);
    });
  return () => {
    stopped = true;
    offMessage();
    offStatus();
  };
}
