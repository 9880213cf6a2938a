/** Turning a dry run's `--stats --itemize-changes` output into the preview answer (counts, and up to 200 itemized lines). */
import type { RsyncStats } from '../../adapters/rsync/index.js';
import type { ServerRecord } from '../servers/index.js';
import type { PreviewView, SyncMode } from './push.schemas.js';

export const FILE_LIST_MAX = 200;

/** An itemized line: `>f+++++++++ path`, `cd+++++++++ dir/`, `*deleting   path`. */
const ITEMIZED = /^(?:\*deleting +|[<>ch.][fdLDS][^ ]{9,10} )(.*)$/;

export function itemizedLines(stdout: string): string[] {
  const lines: string[] = [];
  for (const line of stdout.split('\n')) {
    if (line.startsWith('Number of files:')) break; // the --stats block follows the list
    const m = ITEMIZED.exec(line);
    if (m && m[1] !== './') lines.push(line);
  }
  return lines;
}

/** "Number of created files: 4 (reg: 2, dir: 2)": the regular files, else the total. */
function regularCount(stdout: string, label: string, fallback: number): number {
  const m = new RegExp(`^Number of ${label} files:\\s*[\\d,.']+(?:\\s*\\(([^)]*)\\))?`, 'm').exec(stdout);
  // No breakdown (a zero count, or an rsync too old to print one): the total it is.
  if (!m?.[1]) return fallback;
  const reg = /\breg:\s*([\d,.']+)/.exec(m[1]);
  return reg ? Number(reg[1].replace(/[,.']/g, '')) : 0;
}

export function toPreview(row: ServerRecord, mode: SyncMode, stats: RsyncStats, stdout: string, verbose: boolean): PreviewView {
  const out: PreviewView = {
    server_id: row.id,
    server_name: row.name,
    sync_mode: mode,
    files_total: stats.regularFilesTotal ?? stats.filesTotal,
    files_to_transfer: stats.regularFilesTransferred,
    bytes_total: stats.totalFileSize,
    bytes_to_transfer: stats.totalTransferredFileSize,
    files_created: regularCount(stdout, 'created', stats.filesCreated),
    file_list_truncated: false,
  };
  // Every entry a mirror would delete: files, directories and links (a deleted directory is data lost too).
  if (mode === 'full') out.files_deleted = stats.filesDeleted;
  if (verbose) {
    const lines = itemizedLines(stdout);
    out.file_list = lines.slice(0, FILE_LIST_MAX);
    out.file_list_truncated = lines.length > FILE_LIST_MAX;
  }
  return out;
}
