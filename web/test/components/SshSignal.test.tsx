/** The SSH signal beside the agent: reachable with its time, failing since when and why, never. */
import { screen } from '@testing-library/react';
import type React from 'react';
import { describe, expect, it } from 'vitest';
import { SshSignal } from '../../src/components/SshSignal';
import { AgentStatusBadge } from '../../src/components/StatusBadge';
import { renderWithProviders } from '../render';

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
/** The signal's own text (Mantine adds a style element to the container). */
function shown(ui: React.ReactElement): { text: string; time: string | null | undefined; unmount: () => void } {
  const r = renderWithProviders(<div data-testid="signal">{ui}</div>);
  const el = screen.getByTestId('signal');
  return { text: el.textContent ?? '', time: el.querySelector('time')?.getAttribute('datetime'), unmount: r.unmount };
}

const base = { ssh_status: 'never' as const, ssh_last_ok_at: null, ssh_failing_since: null, ssh_last_error: null };

describe('SshSignal', () => {
  it('reachable: "SSH reachable" and how long ago, the exact time in the time element', () => {
    const at = ago(2 * 60_000 + 5_000);
    const s = shown(<SshSignal server={{ ...base, ssh_status: 'reachable', ssh_last_ok_at: at }} />);
    expect(s.text).toBe('SSH reachable 2 min. ago');
    expect(s.time).toBe(at);
  });

  it('failing: since when, and the error class in words', () => {
    const since = ago(3 * 3_600_000 + 60_000);
    const s = shown(<SshSignal server={{ ...base, ssh_status: 'failing', ssh_last_ok_at: ago(86_400_000), ssh_failing_since: since, ssh_last_error: 'refused' }} />);
    expect(s.text).toBe('SSH failing since 3 hr. ago · connection refused');
    expect(s.time).toBe(since);
  });

  it('failing without the error where space is short; an unknown class is shown as it is', () => {
    const server = { ...base, ssh_status: 'failing' as const, ssh_failing_since: ago(30_000), ssh_last_error: 'auth_failed' };
    const short = shown(<SshSignal server={server} withError={false} />);
    expect(short.text).toBe('SSH failing since 30 sec. ago');
    short.unmount();
    expect(shown(<SshSignal server={{ ...server, ssh_last_error: 'martian' }} />).text).toBe('SSH failing since 30 sec. ago · martian');
  });

  it('never contacted', () => {
    expect(shown(<SshSignal server={base} />).text).toBe('SSH never contacted');
  });

  it('an agent that never sent a heartbeat is "No agent", not "Unknown"', () => {
    renderWithProviders(
      <>
        <AgentStatusBadge status="unknown" />
        <AgentStatusBadge status="online" />
      </>,
    );
    expect(screen.getByText('No agent')).toBeTruthy();
    expect(screen.getByText('Online')).toBeTruthy();
    expect(screen.queryByText('Unknown')).toBeNull();
  });
});
