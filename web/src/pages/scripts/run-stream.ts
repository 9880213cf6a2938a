/**
 * A script run as it happens: the run's journal (GET …/events, replayed from any point) merged
 * with the live socket's messages by their sequence number, so a page that opens late, reloads
 * mid-run or whose socket dropped shows every output chunk exactly once and in order. Messages
 * that arrive ahead of a gap wait until the journal fills it.
 */
import type { ScriptEvent } from '@server/platform/events/live-events.schemas';
import type { Reply } from '../../api/typed';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer } from 'react';
import { scriptQueries, scriptsApi } from '../../api/resources/scripts';
import { followJournal } from '../../api/journal-follow';

type RunDetail = Reply<'GET /api/scripts/runs/{run_id}'>;
export type ServerStatus = 'pending' | 'running' | 'success' | 'failed';

export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  data: string;
}

export interface ServerRun {
  server_id: number;
  server_name: string | null;
  status: ServerStatus;
  exit_code: number | null;
  duration_ms: number | null;
  error: string | null;
  chunks: OutputChunk[];
  /** The live stream stopped at its cap; the final tails replace it once the server ends. */
  truncated: boolean;
  /**
   * The output shown is the stored tails of an ended server: its whole output. A live chunk of
   * that server arriving later (read from the journal or the socket after the detail) is one of
   * those already shown and is dropped (CI saw "about to fail" twice).
   */
  settled?: boolean;
}

export interface RunState {
  lastSeq: number;
  pending: Record<number, ScriptEvent>;
  status: 'running' | 'success' | 'partial' | 'failed';
  label: string | null;
  operator: string | null;
  started_at: string | null;
  duration_ms: number | null;
  order: number[];
  servers: Record<number, ServerRun>;
}

export const emptyRun: RunState = {
  lastSeq: 0, pending: {}, status: 'running', label: null, operator: null, started_at: null, duration_ms: null, order: [], servers: {},
};

const blank = (id: number, name: string | null): ServerRun => ({
  server_id: id, server_name: name, status: 'pending', exit_code: null, duration_ms: null, error: null, chunks: [], truncated: false,
});

/** The whole output of a server as one text (for copying). */
export function outputText(s: ServerRun): string {
  return s.chunks.map((c) => c.data).join('');
}

function tailsAsChunks(stdout: string, stderr: string): OutputChunk[] {
  const out: OutputChunk[] = [];
  if (stdout) out.push({ stream: 'stdout', data: stdout });
  if (stderr) out.push({ stream: 'stderr', data: stderr });
  return out;
}

function withServer(s: RunState, id: number, f: (prev: ServerRun) => ServerRun): RunState {
  const prev = s.servers[id] ?? blank(id, null);
  return { ...s, order: s.order.includes(id) ? s.order : [...s.order, id], servers: { ...s.servers, [id]: f(prev) } };
}

function applyOne(s: RunState, e: ScriptEvent): RunState {
  switch (e.type) {
    case 'script_started': {
      let next: RunState = { ...s, label: e.label, operator: e.operator };
      for (const m of e.servers) next = withServer(next, m.server_id, (p) => ({ ...p, server_name: p.server_name ?? m.server_name }));
      return next;
    }
    case 'script_output':
      return withServer(s, e.server_id, (p) =>
        e.truncated ? { ...p, truncated: true } : p.truncated || p.settled ? p : { ...p, chunks: [...p.chunks, { stream: e.stream, data: e.data }] },
      );
    case 'script_progress':
      return withServer(s, e.server_id, (p) => {
        if (e.status === 'running') return { ...p, server_name: e.server_name ?? p.server_name, status: p.status === 'pending' ? 'running' : p.status };
        const status: ServerStatus = e.status === 'finished' && e.exit_code === 0 && !e.error ? 'success' : 'failed';
        // Past the stream's cap, the end message's tails are what is left to show.
        const chunks = p.truncated ? tailsAsChunks(e.stdout ?? '', e.stderr ?? '') : p.chunks;
        return { ...p, server_name: e.server_name ?? p.server_name, status, exit_code: e.exit_code ?? null, error: e.error ?? null, duration_ms: e.duration_ms ?? null, chunks };
      });
    case 'script_complete':
      return { ...s, status: e.status, duration_ms: e.duration_ms };
  }
}

/** Applies messages in sequence order: duplicates are dropped, messages after a gap wait. */
export function applyEvents(s: RunState, events: ScriptEvent[]): RunState {
  let next: RunState = { ...s, pending: { ...s.pending } };
  for (const e of events) if (e.seq > next.lastSeq) next.pending[e.seq] = e;
  while (next.pending[next.lastSeq + 1]) {
    const e = next.pending[next.lastSeq + 1];
    delete next.pending[e.seq];
    next = { ...applyOne(next, e), lastSeq: e.seq, pending: next.pending };
  }
  return next;
}

/**
 * Seeds the servers (in the request's order) and the run's facts from its stored detail. `final`:
 * the journal has been read to its end, so an ended server whose stream was cut (or whose
 * messages are gone) shows its stored tails instead.
 */
export function seedFromDetail(s: RunState, d: RunDetail, final = false): RunState {
  const servers = { ...s.servers };
  for (const r of d.servers) {
    const prev = servers[r.server_id] ?? blank(r.server_id, r.server_name);
    const ended = r.status === 'success' || r.status === 'failed';
    const useTails = final && ended && (prev.truncated || prev.chunks.length === 0);
    servers[r.server_id] = ended
      ? {
          ...prev, server_name: r.server_name, status: r.status, exit_code: r.exit_code, error: r.error, duration_ms: r.duration_ms,
          chunks: useTails ? tailsAsChunks(r.stdout, r.stderr) : prev.chunks, settled: prev.settled || useTails,
        }
      : { ...prev, server_name: prev.server_name ?? r.server_name };
  }
  return {
    ...s,
    servers,
    order: d.servers.map((r) => r.server_id),
    status: d.status === 'running' ? s.status : d.status,
    label: d.label,
    operator: d.operator,
    started_at: d.started_at,
    duration_ms: d.duration_ms ?? s.duration_ms,
  };
}

type Action = { kind: 'events'; events: ScriptEvent[] } | { kind: 'detail'; detail: RunDetail; final?: boolean } | { kind: 'reset' };

function reducer(s: RunState, a: Action): RunState {
  if (a.kind === 'reset') return emptyRun;
  if (a.kind === 'detail') return seedFromDetail(s, a.detail, a.final);
  return applyEvents(s, a.events);
}

/** The live state of one run; `error` is set when the run cannot be read (unknown id). */
export function useRunStream(runId: string): { run: RunState; error: unknown } {
  const [run, dispatch] = useReducer(reducer, emptyRun);
  const [error, setError] = useReducer((_: unknown, e: unknown) => e, null);
  const client = useQueryClient();

  useEffect(() => {
    dispatch({ kind: 'reset' });
    setError(null);
    let stopped = false;
    const stop = followJournal<ScriptEvent>({
      open: async () => {
        const d = await scriptsApi.run(runId);
        if (!stopped) dispatch({ kind: 'detail', detail: d });
      },
      page: (after) => scriptsApi.events(runId, after),
      pick: (m) => ('run_id' in m && m.run_id === runId && typeof m.seq === 'number' ? (m as ScriptEvent) : null),
      apply: (events) => dispatch({ kind: 'events', events }),
      isFinal: (e) => e.type === 'script_complete',
      ended: async () => {
        const d = await scriptsApi.run(runId);
        if (!stopped) dispatch({ kind: 'detail', detail: d, final: true });
        void client.invalidateQueries({ queryKey: scriptQueries.runsAll });
      },
      fail: setError,
    });
    return () => {
      stopped = true;
      stop();
    };
  }, [runId, client]);

  return { run, error };
}
