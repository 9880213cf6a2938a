/**
 * The push flow's place and choices live in the URL (`?step=servers&source=…&servers=3,8&mode=…
 * &target=…`), so a reload, or a link pasted to a colleague, returns to the same step with the same
 * source, servers, mode and target. Changes replace the history entry rather than adding one per
 * tick of a checkbox. `?tag=web` (from the tags page, "push to this tag") adds every server
 * carrying the tag to the selection once their ids arrive, then leaves the URL.
 */
import type { SyncMode } from '@server/modules/push/push.schemas';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { serverQueries } from '../../api/resources/servers';
import type { PushOptions } from './ReviewStep';

export const STEPS = ['source', 'servers', 'preview'] as const;
const MODES: SyncMode[] = ['incremental', 'checksum', 'full'];
/** More ids than any fleet pushes to at once are ignored rather than parsed. */
const MAX_IDS = 10_000;

function parseIds(raw: string | null): number[] {
  if (!raw) return [];
  const ids = raw.split(',').slice(0, MAX_IDS).map(Number).filter((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647);
  return [...new Set(ids)].sort((a, b) => a - b);
}

interface FlowState {
  step: number;
  source: string | null;
  ids: number[];
  options: PushOptions;
  /** A tag whose servers are still to be added to `ids`. */
  tag: string | null;
}

function read(params: URLSearchParams): FlowState {
  const source = params.get('source');
  const ids = parseIds(params.get('servers'));
  const modeRaw = params.get('mode');
  const mode = MODES.includes(modeRaw as SyncMode) ? (modeRaw as SyncMode) : 'incremental';
  const wanted = Math.max(0, STEPS.indexOf((params.get('step') ?? 'source') as (typeof STEPS)[number]));
  const tag = params.get('tag')?.trim().slice(0, 64) || null;
  return { step: wanted, source, ids, options: { mode, targetPath: params.get('target') ?? '' }, tag };
}

function write(prev: URLSearchParams, s: FlowState): URLSearchParams {
  const next = new URLSearchParams(prev);
  const set = (k: string, v: string | null) => (v ? next.set(k, v) : next.delete(k));
  set('step', s.step === 0 ? null : STEPS[s.step]);
  set('source', s.source);
  set('servers', s.ids.join(',') || null);
  set('mode', s.options.mode === 'incremental' ? null : s.options.mode);
  set('target', s.options.targetPath || null);
  set('tag', s.tag);
  return next;
}

/**
 * The flow's state is held here (a checkbox answers at once) and copied into the URL after each
 * change; the URL is read once, when the page opens. While a batch is shown (`?batch=`) the URL
 * belongs to it and is left alone.
 */
export function usePushFlowParams() {
  const [params, setParams] = useSearchParams();
  const [state, setState] = useState(() => read(params));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setParams((prev) => (prev.has('batch') ? prev : write(prev, state)), { replace: true });
  }, [state, setParams]);

  const tagIds = useQuery({ ...serverQueries.ids({ tag: state.tag ?? '' }), enabled: state.tag !== null });
  useEffect(() => {
    if (!tagIds.data) return;
    setState((s) => (s.tag === null ? s : { ...s, tag: null, ids: [...new Set([...s.ids, ...tagIds.data.ids])].sort((a, b) => a - b) }));
  }, [tagIds.data]);

  const selected = useMemo(() => new Set(state.ids), [state.ids]);
  // A step is only reachable with what it needs: no servers step without a source, and so on.
  const step = Math.min(state.step, state.source === null ? 0 : state.ids.length === 0 ? 1 : 2);
  const patch = useCallback((p: Partial<FlowState>) => setState((s) => ({ ...s, ...p })), []);

  return {
    step,
    source: state.source,
    selected,
    ids: state.ids,
    options: state.options,
    setStep: (s: number) => patch({ step: s }),
    setSource: (path: string) => patch({ source: path }),
    setSelected: (next: Set<number>) => patch({ ids: [...next].sort((a, b) => a - b) }),
    setOptions: (o: PushOptions) => patch({ options: o }),
    /** Back to an empty flow (after a push, for a new one). */
    reset: () => setState(read(new URLSearchParams())),
  };
}
