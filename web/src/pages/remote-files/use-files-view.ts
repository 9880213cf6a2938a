/**
 * The files page's state lives in the URL (`?path=&hidden=1&diagnose=1`), so a reload or a pasted
 * link shows the same folder, the same hidden-files choice and the diagnosis panel open.
 */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { normalizeDir } from './remote-paths';

export interface FilesView {
  /** null: no `path` in the URL yet (the page starts at the server's target directory). */
  path: string | null;
  showHidden: boolean;
  diagnose: boolean;
}

export function useFilesView() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('path');
  const view: FilesView = {
    path: raw === null ? null : normalizeDir(raw),
    showHidden: params.get('hidden') === '1',
    diagnose: params.get('diagnose') === '1',
  };
  const update = useCallback(
    (patch: Partial<FilesView>, replace = false) => {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          if (patch.path !== undefined) {
            if (patch.path === null) p.delete('path');
            else p.set('path', normalizeDir(patch.path));
          }
          if (patch.showHidden !== undefined) {
            if (patch.showHidden) p.set('hidden', '1');
            else p.delete('hidden');
          }
          if (patch.diagnose !== undefined) {
            if (patch.diagnose) p.set('diagnose', '1');
            else p.delete('diagnose');
          }
          return p;
        },
        { replace },
      );
    },
    [setParams],
  );
  /** The link to another folder, keeping the other choices. */
  const hrefFor = (path: string) => {
    const p = new URLSearchParams(params);
    p.set('path', normalizeDir(path));
    p.delete('diagnose');
    return `?${p.toString()}`;
  };
  return { view, update, hrefFor };
}
