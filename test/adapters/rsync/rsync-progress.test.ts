import { describe, expect, it } from 'vitest';
import { parseProgressLine, ProgressReader, type RsyncProgress } from '../../../src/adapters/rsync/rsync-progress.js';

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

describe('ProgressReader', () => {
  it('reads updates split across chunks and ended by \\r or \\n, skipping the stats block', () => {
    const seen: RsyncProgress[] = [];
    const r = new ProgressReader((p) => seen.push(p));
    r.push('\r         32,768   0%    0.00kB/s    0:00:00  \r     21,528,');
    r.push('576  43%   19.56MB/s    0:00:01  \r     50,000,000 100%   19.75MB/s    0:00:02 (xfr#2, to-chk=0/3)\n\n');
    r.push('Number of files: 3 (reg: 2, dir: 1)\nTotal transferred file size: 50,000,000 bytes\n');
    expect(seen.map((p) => [p.bytes, p.percent])).toEqual([
      [32768, 0],
      [21528576, 43],
      [50000000, 100],
    ]);
  });

  it('drops a runaway partial line instead of growing without bound', () => {
    const seen: RsyncProgress[] = [];
    const r = new ProgressReader((p) => seen.push(p));
    r.push('x'.repeat(10_000));
    r.push('\r          1,024  12%  512.00kB/s    0:00:09\r');
    expect(seen).toHaveLength(1);
  });
});
