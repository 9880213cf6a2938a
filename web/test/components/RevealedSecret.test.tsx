/** A revealed secret counts down and is hidden again after 30 s, or at once with "Hide now". */
import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REVEAL_MS, RevealedSecret } from '../../src/components/RevealedSecret';
import { renderWithProviders } from '../render';

function Harness() {
  const [value, setValue] = useState<string | null>('hunter2-secret');
  return value === null ? <p>hidden</p> : <RevealedSecret label="Password of ops" value={value} onHide={() => setValue(null)} />;
}

describe('RevealedSecret', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the secret with a countdown, then hides it after 30 seconds', () => {
    renderWithProviders(<Harness />);
    expect(screen.getByText('hunter2-secret')).toBeTruthy();
    expect(screen.getByText('Hidden again in 30 seconds')).toBeTruthy();
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByText('Hidden again in 20 seconds')).toBeTruthy();
    act(() => vi.advanceTimersByTime(REVEAL_MS - 10_000 - 1));
    expect(screen.getByText('hunter2-secret')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('hunter2-secret')).toBeNull();
    expect(screen.getByText('hidden')).toBeTruthy();
  });

  it('hides at once with "Hide now"', () => {
    renderWithProviders(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Hide now' }));
    expect(screen.queryByText('hunter2-secret')).toBeNull();
  });
});
