/**
 * Reads rsync's `--info=progress2` lines from its stdout as it arrives. Each update is one line
 * ended by `\r` (the last by `\n`), e.g. `  21,528,576  43%   19.56MB/s    0:00:01 (xfr#1, to-chk=1/3)`:
 * bytes so far for the whole transfer, percent, rate (rsync's kB/MB/GB are 1024-based) and the
 * time left (or, on the last line, the time taken). Anything else (the --stats block) is ignored.
 */
export interface RsyncProgress {
  /** Bytes sent so far in this run. */
  bytes: number;
  /** 0..100; rsync counts files it has yet to check, so it can step back when it finds more. */
  percent: number;
  /** Bytes per second. */
  rateBps: number;
  /** Seconds left as rsync estimates them. */
  etaSeconds: number;
}

const LINE = /^\s*([\d,.']+)\s+(\d{1,3})%\s+([\d.]+)([kMGT]?B)\/s\s+(\d+):(\d{2}):(\d{2})/;
const UNIT: Record<string, number> = { B: 1, kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };
/** A partial line longer than this is not a progress line; dropping it bounds the memory. */
const MAX_PENDING = 512;

export function parseProgressLine(line: string): RsyncProgress | null {
  const m = LINE.exec(line);
  if (!m) return null;
  const bytes = Number(m[1].replace(/[,.']/g, ''));
  const rate = Number(m[3]) * (UNIT[m[4]] ?? 1);
  if (!Number.isFinite(bytes) || !Number.isFinite(rate)) return null;
  return {
    bytes,
    percent: Math.min(100, Number(m[2])),
    rateBps: Math.round(rate),
    etaSeconds: Number(m[5]) * 3600 + Number(m[6]) * 60 + Number(m[7]),
  };
}

/** Feed it stdout chunks; it calls `onProgress` for every complete progress line. */
export class ProgressReader {
  private pending = '';

  constructor(private readonly onProgress: (p: RsyncProgress) => void) {}

  push(chunk: Buffer | string): void {
    const parts = (this.pending + chunk.toString('latin1')).split(/[\r\n]/);
    this.pending = parts.pop() ?? '';
    if (this.pending.length > MAX_PENDING) this.pending = '';
    for (const line of parts) {
      const p = line ? parseProgressLine(line) : null;
      if (p) this.onProgress(p);
    }
  }
}
