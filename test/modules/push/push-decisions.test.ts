/** The pure decisions of a push: a batch's final status, and a dry run turned into a preview. */
import { describe, expect, it } from 'vitest';
import { parseRsyncStats } from '../../../src/adapters/rsync/index.js';
import type { ServerRow } from '../../../src/db/types.js';
import { FILE_LIST_MAX, toPreview } from '../../../src/modules/push/push-preview.js';
import { batchStatus } from '../../../src/modules/push/push.repository.js';

describe('batchStatus', () => {
  it.each([
    [{ succeeded: 3, failed: 0, skipped: 0 }, false, 'completed'],
    [{ succeeded: 0, failed: 0, skipped: 0 }, false, 'completed'],
    [{ succeeded: 2, failed: 1, skipped: 0 }, false, 'partial'],
    [{ succeeded: 0, failed: 2, skipped: 0 }, false, 'failed'],
    [{ succeeded: 0, failed: 1, skipped: 4 }, false, 'failed'],
    [{ succeeded: 3, failed: 0, skipped: 2 }, false, 'completed'],
    [{ succeeded: 1, failed: 1, skipped: 1 }, true, 'cancelled'],
    [{ succeeded: 5, failed: 0, skipped: 0 }, true, 'cancelled'],
  ] as const)('%j cancelled=%s → %s', (counts, cancelled, expected) => {
    expect(batchStatus(counts, cancelled)).toBe(expected);
  });
});

const row = { id: 7, name: 'web-7' } as ServerRow;
const stats = (created: string, deleted: string) => `
Number of files: 12 (reg: 9, dir: 3)
Number of created files: ${created}
Number of deleted files: ${deleted}
Number of regular files transferred: 4
Total file size: 12,345 bytes
Total transferred file size: 2,048 bytes
Literal data: 2,048 bytes
Matched data: 0 bytes
File list size: 0
Total bytes sent: 3,000
Total bytes received: 100
`;
const itemized = ['cd+++++++++ newdir/', '<f+++++++++ newdir/a.txt', '<f.st...... changed.txt', '*deleting   old/x.txt', '*deleting   old/', '.d..t...... ./'];

describe('toPreview', () => {
  it.each([
    ['incremental, quiet', 'incremental', false, '2 (reg: 1, dir: 1)', '0', { files_created: 1, file_list_truncated: false }, ['files_deleted', 'file_list']],
    ['full counts every deleted entry', 'full', false, '2 (reg: 1, dir: 1)', '2 (reg: 1, dir: 1)', { files_deleted: 2 }, ['file_list']],
    ['no breakdown: the total', 'checksum', false, '3', '0', { files_created: 3 }, ['files_deleted']],
  ] as const)('%s', (_label, mode, verbose, created, deleted, expected, absent) => {
    const stdout = `${itemized.join('\n')}\n${stats(created, deleted)}`;
    const p = toPreview(row, mode, parseRsyncStats(stdout)!, stdout, verbose);
    expect(p).toMatchObject({
      server_id: 7, server_name: 'web-7', sync_mode: mode, files_total: 9, files_to_transfer: 4,
      bytes_total: 12_345, bytes_to_transfer: 2_048, ...expected,
    });
    for (const key of absent) expect(p).not.toHaveProperty(key);
  });

  it('lists the itemized lines (never ./), capped at 200 with the cap said', () => {
    const many = Array.from({ length: FILE_LIST_MAX + 5 }, (_, i) => `<f+++++++++ f${i}.txt`);
    const stdout = `${[...itemized, ...many].join('\n')}\n${stats('0', '0')}`;
    const p = toPreview(row, 'full', parseRsyncStats(stdout)!, stdout, true);
    expect(p.file_list).toHaveLength(FILE_LIST_MAX);
    expect(p.file_list?.slice(0, 5)).toEqual(itemized.slice(0, 5));
    expect(p.file_list_truncated).toBe(true);
    const few = `${itemized.join('\n')}\n${stats('0', '0')}`;
    expect(toPreview(row, 'incremental', parseRsyncStats(few)!, few, true)).toMatchObject({ file_list: itemized.slice(0, 5), file_list_truncated: false });
  });
});
