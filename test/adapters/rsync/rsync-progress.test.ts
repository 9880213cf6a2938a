import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { followProgress, lastProgress, parseProgressLine, type RsyncProgress } from '../../../src/adapters/rsync/rsync-progress.js';

describe('parseProgressLine', () => {
  it.each([
    ['         32,768   0%    0.00kB/s    0:00:00  ', { bytes: 32768, percent: 0, rateBps: 0, etaSeconds: 0 }],
    ['     21,528,576  43%   19.56MB/s    0:00:01  ', { bytes: 21528576, percent: 43, rateBps: Math.round(19.56 * 1024 ** 2), etaSeconds: 1 }],
    ['     50,000,000 100%   19.75MB/s    0:00:02 (xfr#2, to-chk=0/3)', { bytes: 50_000_000, percent: 100, rateBps: Math.round(19.75 * 1024 ** 2), etaSeconds: 2 }],
    ['  5,368,709,120  71%    1.02GB/s    1:02:03', { bytes: 5368709120, percent: 71, rateBps: Math.round(1.02 * 1024 ** 3), etaSeconds: 3723 }],
    ['          1,024  12%  512.00kB/s    0:00:09', { bytes: 1024, percent: 12, rateBps: 512 * 1024, etaSeconds: 9 }],
  ])('%s', (line, expected) => {
    expect(parseProgressLine(line)).toEqual(expected);
  });

  it.each(['Number of files: 3 (reg: 2, dir: 1)', 'Total file size: 50,000,000 bytes', '', 'sent 50,012,345 bytes  received 57 bytes', 'a.bin'])(
    'ignores %j',
    (line) => {
      expect(parseProgressLine(line)).toBeNull();
    },
  );
});

describe('lastProgress', () => {
  it('takes the newest complete update, whether ended by \\r, \\n or nothing, and skips the stats block', () => {
    const out = '\r         32,768   0%    0.00kB/s    0:00:00  \r     21,528,576  43%   19.56MB/s    0:00:01  ';
    expect(lastProgress(out)).toMatchObject({ bytes: 21528576, percent: 43 });
    const done = `${out}\r     50,000,000 100%   19.75MB/s    0:00:02 (xfr#2, to-chk=0/3)\n\nNumber of files: 3 (reg: 2, dir: 1)\nTotal transferred file size: 50,000,000 bytes\n`;
    expect(lastProgress(done)).toMatchObject({ bytes: 50_000_000, percent: 100 });
  });

  it('never takes a line cut short by a look that met a write half done', () => {
    expect(lastProgress('\r         32,768   0%    0.00kB/s    0:00:00  \r     21,528,576  43%   19.56MB/s    0:00:0')).toMatchObject({ bytes: 32768 });
    expect(lastProgress('576  43%   19.5')).toBeNull();
    expect(lastProgress('')).toBeNull();
  });
});

describe('followProgress', () => {
  it('reports the newest update written since its last look, nothing while nothing new was written', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fleet-progress-'));
    const fh = await open(path.join(dir, 'stdout'), 'wx+', 0o600);
    const seen: RsyncProgress[] = [];
    const f = followProgress(fh, 40, (p) => seen.push(p));
    try {
      await fh.write('\r         32,768   0%    0.00kB/s    0:00:00  \r     21,528,576  43%   19.56MB/s    0:00:01  ');
      await sleep(250);
      expect(seen.map((p) => p.bytes)).toEqual([21528576]);
      // More than one look reads (880 bytes, a look takes 512): only the end of it matters. One
      // write within a page, so no look lands between the stale updates and the last one (such a
      // look would rightly report 1,024).
      await fh.write(
        '\r          1,024  12%  512.00kB/s    0:00:09'.repeat(20) +
          '\r     50,000,000 100%   19.75MB/s    0:00:02 (xfr#2, to-chk=0/3)\n\nNumber of files: 3\n',
      );
      await sleep(250);
      expect(seen.map((p) => p.bytes)).toEqual([21528576, 50_000_000]);
    } finally {
      await f.stop();
      await fh.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const n = seen.length;
    await sleep(100);
    expect(seen).toHaveLength(n);
  });
});
