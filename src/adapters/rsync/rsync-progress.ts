/**
 * Reads rsync's `--info=progress2` updates. Each update is one line started by `\r`, e.g.
 * `  21,528,576  43%   19.56MB/s    0:00:01 (xfr#1, to-chk=1/3)`: bytes so far for the whole
 * transfer, percent, rate (rsync's kB/MB/GB are 1024-based) and the time left (or, on the last
 * line, the time taken). Anything else (the --stats block) is ignored.
 *
 * rsync writes one such line per file it finishes (thousands a second with small files) and one
 * a second within a large file. Read from a pipe, every line is a wake-up of the service's event
 * loop (about 40 ms of its CPU for a 2,000-file push), so rsync's stdout goes to a file instead,
 * and only the newest update is read from it a few times a second.
 */
import type { FileHandle } from 'node:fs/promises';

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
/** How much of the newly written output a look reads: several of rsync's lines (under 100 bytes each). */
const LOOK_BYTES = 512;

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

/**
 * The newest update in a piece of rsync's output, or null. A line cut short (a look that met a
 * write half done) lacks the time field the pattern requires, so it is never taken.
 */
export function lastProgress(text: string): RsyncProgress | null {
  const lines = text.split(/[\r\n]/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const p = lines[i] ? parseProgressLine(lines[i]) : null;
    if (p) return p;
  }
  return null;
}

export interface ProgressFollower {
  /** Stops looking; resolves once a look under way has finished. */
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, reads what rsync appended to its output file since the last look (its last
 * LOOK_BYTES at most) and reports the newest update in it, if any: at most one report a look,
 * none while nothing new was written.
 */
export function followProgress(file: FileHandle, intervalMs: number, onProgress: (p: RsyncProgress) => void): ProgressFollower {
  let seen = 0;
  let look: Promise<void> | null = null;
  const once = async (): Promise<void> => {
    const { size } = await file.stat();
    if (size <= seen) return;
    const from = Math.max(seen, size - LOOK_BYTES);
    const buf = Buffer.alloc(size - from);
    const { bytesRead } = await file.read(buf, 0, buf.length, from);
    seen = from + bytesRead;
    const p = lastProgress(buf.toString('latin1', 0, bytesRead));
    if (p) onProgress(p);
  };
  const timer = setInterval(() => {
    // A look still under way (a slow disk) is not doubled.
    look ??= once()
      .catch(() => {})
      .finally(() => {
        look = null;
      });
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await look;
    },
  };
}
