import { afterEach, describe, expect, it, vi } from 'vitest';

type Listener<T> = (v: T) => void;
const socket = vi.hoisted(() => ({
  messages: new Set<Listener<unknown>>(),
  statuses: new Set<Listener<string>>(),
}));
vi.mock('../../src/api/socket', () => ({
  liveSocket: {
    onMessage: (l: Listener<unknown>) => {
      socket.messages.add(l);
      return () => socket.messages.delete(l);
    },
    onStatus: (l: Listener<string>) => {
      socket.statuses.add(l);
      return () => socket.statuses.delete(l);
    },
  },
}));
const { followJournal } = await import('../../src/api/journal-follow');

interface Ev {
  job: string;
  seq: number;
  type: string;
}
const ev = (seq: number, type = 'progress'): Ev => ({ job: 'j1', seq, type });
const send = (m: unknown) => {
  for (const l of socket.messages) l(m);
};
const tick = () => new Promise((r) => setTimeout(r, 0));

function journal(pages: Array<{ events: Ev[]; status?: string; more?: boolean }>) {
  const applied: Array<[number[], boolean]> = [];
  const asked: number[] = [];
  const ended = vi.fn(async () => {});
  const stop = followJournal<Ev>({
    open: async () => {},
    page: async (after) => {
      asked.push(after);
      const p = pages.shift() ?? { events: [] };
      return { events: p.events, last_seq: p.events.at(-1)?.seq ?? after, more: p.more ?? false, status: p.status ?? 'running' };
    },
    pick: (m) => ((m as unknown as Ev).job === 'j1' ? (m as unknown as Ev) : null),
    apply: (events, fromJournal) => applied.push([events.map((e) => e.seq), fromJournal]),
    isFinal: (e) => e.type === 'complete',
    ended,
    fail: (e) => {
      throw e;
    },
  });
  return { applied, asked, ended, stop };
}

describe('following a journal with the live socket on top', () => {
  afterEach(() => {
    socket.messages.clear();
    socket.statuses.clear();
  });

  it('reads the journal on open, then takes live messages in order; a gap reads the journal from the last seq in order', async () => {
    const j = journal([{ events: [ev(1), ev(2)] }, { events: [ev(3), ev(4)] }]);
    await tick();
    expect(j.asked).toEqual([0]);
    send(ev(2)); // already read: dropped
    send({ job: 'other', seq: 3, type: 'progress' }); // another journal's
    send(ev(5)); // 3 and 4 were missed
    await tick();
    expect(j.asked).toEqual([0, 2]);
    expect(j.applied).toEqual([
      [[1, 2], true],
      [[5], false],
      [[3, 4], true],
    ]);
  });

  it('reads again after the socket reconnects, and the final message reads the end state', async () => {
    const j = journal([{ events: [ev(1)] }, { events: [ev(2), ev(3, 'complete')], status: 'completed' }]);
    await tick();
    for (const l of socket.statuses) l('reconnecting');
    for (const l of socket.statuses) l('connected');
    await tick();
    expect(j.asked).toEqual([0, 1]);
    expect(j.ended).toHaveBeenCalledTimes(1); // the journal said the work is over
    send(ev(4, 'complete'));
    expect(j.ended).toHaveBeenCalledTimes(2);
  });

  it('applies nothing after it is stopped', async () => {
    const j = journal([{ events: [ev(1)] }]);
    await tick();
    j.stop();
    send(ev(2));
    expect(j.applied).toEqual([[[1], true]]);
    expect(socket.messages.size).toBe(0);
  });
});
