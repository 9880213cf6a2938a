/** The batch bar shows real progress (not finished servers only) and a cancel leaves a trace. */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type BatchStream, emptyStream, type ServerProgress } from '../../../src/api/batch-stream';
import { BatchProgress } from '../../../src/components/batch/BatchProgress';
import { overallProgress } from '../../../src/components/batch/overall';
import { renderWithProviders } from '../../render';

const server = (id: number, status: string, percent: number | null = null): ServerProgress => ({
  server_id: id, server_name: `web-${id}`, status, percent, bytes_transferred: 0, rate_bps: null, eta_s: null,
  files_transferred: null, duration_ms: null, error: status === 'failed' ? 'rsync: connection refused' : null, retry_job_id: null, error_code: null,
});

function stream(servers: ServerProgress[], extra: Partial<BatchStream> = {}): BatchStream {
  const count = (s: string) => servers.filter((v) => v.status === s).length;
  return {
    ...emptyStream, total: servers.length, succeeded: count('success'), failed: count('failed'), skipped: count('skipped'),
    servers: Object.fromEntries(servers.map((s) => [s.server_id, s])), ...extra,
  };
}

describe('overall batch progress', () => {
  it('is 50 % while every server is half-way (not 0 % because none has finished)', () => {
    const s = stream([server(1, 'running', 50), server(2, 'running', 50), server(3, 'running', 50), server(4, 'running', 50)]);
    expect(overallProgress(s)).toEqual({ percent: 50, success: 0, failed: 0, skipped: 0, running: 50 });
  });

  it('counts finished servers as 100 and servers not started as 0', () => {
    const s = stream([server(1, 'success', 100), server(2, 'failed'), server(3, 'running', 40), server(4, 'pending')]);
    expect(overallProgress(s)).toEqual({ percent: 60, success: 25, failed: 25, skipped: 0, running: 10 });
  });

  it('counts servers the batch failed before listing them (unknown ids)', () => {
    const s = stream([server(1, 'success', 100)], { total: 2, failed: 1 });
    expect(overallProgress(s).percent).toBe(100);
    expect(overallProgress({ ...emptyStream }).percent).toBe(0);
  });

  it('shows the percentage as a labelled progress bar', () => {
    renderWithProviders(<BatchProgress stream={stream([server(1, 'running', 50), server(2, 'running', 25)])} />);
    const bar = screen.getByRole('progressbar', { name: 'Overall progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('37');
    expect(screen.getByText('37% overall')).toBeTruthy();
    expect(screen.getByText('0 of 2 servers done')).toBeTruthy();
  });

  it('a cancelled batch says how many servers were skipped, with plurals', () => {
    const { unmount } = renderWithProviders(
      <BatchProgress stream={stream([server(1, 'success', 100), server(2, 'skipped'), server(3, 'skipped'), server(4, 'skipped'), server(5, 'skipped'), server(6, 'skipped')], { status: 'cancelled' })} />,
    );
    expect(screen.getByRole('status').textContent).toBe('Cancelled: 5 servers skipped');
    unmount();
    renderWithProviders(<BatchProgress stream={stream([server(1, 'success', 100), server(2, 'skipped')], { status: 'cancelled' })} />);
    expect(screen.getByRole('status').textContent).toBe('Cancelled: 1 server skipped');
  });

  it('a batch that was not cancelled has no such line', () => {
    renderWithProviders(<BatchProgress stream={stream([server(1, 'success', 100)], { status: 'completed' })} />);
    expect(screen.queryByText(/^Cancelled:/)).toBeNull();
  });
});
