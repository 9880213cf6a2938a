/** The diagnosis: every check with its verdict in words, and what to do for a failed one, translated. */
import type { Reply } from '../../../src/api/typed';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../src/i18n/en';
import { DiagnoseResult } from '../../../src/pages/remote-files/DiagnosePanel';
import { renderWithProviders } from '../../render';

const base: Reply<'POST /api/sync/diagnose'> = {
  server_id: 1, server_name: 'web-01', ssh_ok: false, disk_avail: null, disk_used_pct: null, path_exists: null, path_perms: null, path_writable: null,
  errors: ['SSH connection failed: Connection refused by 127.0.0.1:2222'],
};
const skipped = (check: 'auth' | 'disk' | 'path' | 'rsync') => ({ check, status: 'skipped' as const, detail: null });

describe('DiagnoseResult', () => {
  it('a stopped sshd: reachability failed with its advice, the rest not run', () => {
    renderWithProviders(
      <DiagnoseResult
        data={{
          ...base,
          checks: [
            { check: 'reachability', status: 'failed', detail: 'Connection refused by 127.0.0.1:2222', advice: 'start_sshd', advice_text: 'x' },
            skipped('auth'), skipped('disk'), skipped('path'), skipped('rsync'),
          ],
        }}
      />,
    );
    const reach = screen.getByRole('listitem', { name: `${en.remoteFiles.checks.reachability}: ${en.remoteFiles.checkStatus.failed}` });
    expect(within(reach).getByText(en.remoteFiles.advice.start_sshd)).toBeTruthy();
    expect(within(reach).getByText(/Connection refused/)).toBeTruthy();
    expect(screen.getByRole('listitem', { name: `${en.remoteFiles.checks.rsync}: ${en.remoteFiles.checkStatus.skipped}` })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('1 check failed');
  });

  it('all passed: no advice shown', () => {
    const ok = (check: 'reachability' | 'auth' | 'disk' | 'path' | 'rsync') => ({ check, status: 'ok' as const, detail: null });
    renderWithProviders(<DiagnoseResult data={{ ...base, ssh_ok: true, errors: [], checks: [ok('reachability'), ok('auth'), ok('disk'), ok('path'), ok('rsync')] }} />);
    expect(screen.getByRole('status').textContent).toBe(en.remoteFiles.allPassed);
    expect(screen.queryByText(new RegExp(en.remoteFiles.whatToDo))).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(5);
  });
});
