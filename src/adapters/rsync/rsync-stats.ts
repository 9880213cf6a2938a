/**
 * What rsync's `--stats` says about a transfer (or a dry run's preview), read from its output:
 * rsync 3.0 to 3.4 wording, numbers with or without thousands separators.
 */
export interface RsyncStats {
  filesTotal: number;
  regularFilesTotal: number | null;
  dirsTotal: number | null;
  filesCreated: number;
  filesDeleted: number;
  regularFilesTransferred: number;
  totalFileSize: number;
  totalTransferredFileSize: number;
  literalData: number;
  matchedData: number;
  fileListSize: number | null;
  totalBytesSent: number | null;
  totalBytesReceived: number | null;
}

/** Parse `--stats` output (rsync 3.0 to 3.4 wording, with or without thousands separators); null if absent. */
export function parseRsyncStats(stdout: string): RsyncStats | null {
  const num = (re: RegExp): number | null => {
    const m = re.exec(stdout);
    return m ? toNumber(m[1]) : null;
  };
  const files = /^Number of files:\s*([\d,.']+)(?:\s*\(([^)]*)\))?/m.exec(stdout);
  if (!files) return null;
  const breakdown = (kind: string): number | null => {
    const m = new RegExp(`\\b${kind}:\\s*([\\d,.']+)`).exec(files[2] ?? '');
    return m ? toNumber(m[1]) : null;
  };
  return {
    filesTotal: toNumber(files[1]),
    regularFilesTotal: breakdown('reg'),
    dirsTotal: breakdown('dir'),
    filesCreated: num(/^Number of created files:\s*([\d,.']+)/m) ?? 0,
    filesDeleted: num(/^Number of deleted files:\s*([\d,.']+)/m) ?? 0,
    // rsync 3.0 says "Number of files transferred", 3.1+ "Number of regular files transferred".
    regularFilesTransferred: num(/^Number of (?:regular )?files transferred:\s*([\d,.']+)/m) ?? 0,
    totalFileSize: num(/^Total file size:\s*([\d,.']+)/m) ?? 0,
    totalTransferredFileSize: num(/^Total transferred file size:\s*([\d,.']+)/m) ?? 0,
    literalData: num(/^Literal data:\s*([\d,.']+)/m) ?? 0,
    matchedData: num(/^Matched data:\s*([\d,.']+)/m) ?? 0,
    fileListSize: num(/^File list size:\s*([\d,.']+)/m),
    totalBytesSent: num(/^Total bytes sent:\s*([\d,.']+)/m),
    totalBytesReceived: num(/^Total bytes received:\s*([\d,.']+)/m),
  };
}

/** Digits grouped by ',', '.' or "'" (locale-dependent); we spawn with LC_ALL=C but parse any. */
function toNumber(s: string): number {
  return Number(s.replace(/[,.']/g, ''));
}
