/** A secret is shown only after the password, the service's refusal under the field, hidden after 30 s. */
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/errors';
import { RevealSecret } from '../../src/components/RevealSecret';
import { REVEAL_MS } from '../../src/components/RevealedSecret';

const REVEAL_SECONDS = REVEAL_MS / 1000;
import { renderWithProviders } from '../render';

afterEach(() => vi.useRealTimers());

describe('RevealSecret', () => {
  it('asks for the password, shows the refusal, then the value, and hides it again after 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const reveal = vi.fn(async (pw: string) => {
      if (pw !== 'right-password') throw new ApiError(400, 'Current password is incorrect', [], null, 'wrong_password');
      return { value: 'sk-the-secret' };
    });
    renderWithProviders(<RevealSecret name="API key" reveal={reveal} />);
    expect(screen.queryByText('sk-the-secret')).toBeNull();

    await user.click(screen.getByRole('button', { name: /API key/ }));
    const password = await screen.findByLabelText('Your password', { exact: false, selector: 'input' });
    await user.type(password, 'wrong');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Your current password is not correct.')).toBeTruthy();
    expect(screen.queryByText('sk-the-secret')).toBeNull();

    await user.clear(password);
    await user.type(password, 'right-password{Enter}');
    expect(await screen.findByText('sk-the-secret')).toBeTruthy();
    expect(reveal).toHaveBeenLastCalledWith('right-password');

    // One second at a time: each tick renders and arms the next.
    const tick = () => act(async () => void (await vi.advanceTimersByTimeAsync(1000)));
    for (let i = 0; i < REVEAL_SECONDS - 2; i++) await tick();
    expect(screen.queryByText('sk-the-secret')).not.toBeNull();
    await tick();
    await tick();
    await tick();
    expect(screen.queryByText('sk-the-secret')).toBeNull();
  });
});
