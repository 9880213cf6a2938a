/**
 * The push flow's place and choices live in the URL (`?step=servers&source=…&servers=3,8&mode=…
 * &target=…`), so a reload, or a link pasted to a colleague, returns to the same step with the same
 * source, servers, mode and target. Changes replace the history entry rather than adding one per
 * tick of a checkbox.
 */
import type { SyncMode } from '@server/modules/push/push.schemas';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
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

export function usePushFlowParams() {
  const [params, setParams] = useSearchParams();
  const source = params.get('source');
  const serversRaw = params.get('servers');
  const ids = useMemo(() => parseIds(serversRaw), [serversRaw]);
  const selected = useMemo(() => new Set(ids), [ids]);
  const modeRaw = params.get('mode');
  const mode = MODES.includes(modeRaw as SyncMode) ? (modeRaw as SyncMode) : 'incremental';
  const targetPath = params.get('target') ?? '';
  const options = useMemo<PushOptions>(() => ({ mode, targetPath }), [mode, targetPath]);
  // A step is only reachable with what it needs: no servers step without a source, and so on.
  const wanted = Math.max(0, STEPS.indexOf((params.get('step') ?? 'source') as (typeof STEPS)[number]));
  const step = Math.min(wanted, source === null ? 0 : ids.length === 0 ? 1 : 2);

  const update = useCallback(
    (patch: Record<string, string | null>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            if (v === null || v === '') next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  return {
    step,
    source,
    selected,
    ids,
    options,
    setStep: (s: number) => update({ step: s === 0 ? null : STEPS[s] }),
    setSource: (path: string) => update({ source: path }),
    setSelected: (next: Set<number>) => update({ servers: [...next].sort((a, b) => a - b).join(',') || null }),
    setOptions: (o: PushOptions) => update({ mode: o.mode === 'incremental' ? null : o.mode, target: o.targetPath || null }),
  };
}
