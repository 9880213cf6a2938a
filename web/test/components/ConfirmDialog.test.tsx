/** A destructive action waits for its word to be typed; a plain confirmation does not. */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '../../src/components/ConfirmDialog';
import { renderWithProviders } from '../render';

function Harness({ word, onConfirm = () => {} }: { word?: string; onConfirm?: () => void }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpened(true)}>
        open
      </button>
      <ConfirmDialog
        opened={opened}
        title="Delete server"
        message="Delete web-01? Its push history stays."
        word={word}
        confirmLabel="Delete server"
        onConfirm={() => {
          onConfirm();
          // As pages do: the dialog closes when the action is done, not through onClose.
          setOpened(false);
        }}
        onClose={() => setOpened(false)}
      />
    </>
  );
}

const confirmButton = () => screen.getByRole('button', { name: 'Delete server' });

describe('ConfirmDialog', () => {
  it('keeps the button disabled until the exact word is typed', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderWithProviders(<Harness word="web-01" onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'open' }));

    expect(screen.getByRole('dialog', { name: 'Delete server' })).toBeTruthy();
    expect(screen.getByText('Delete web-01? Its push history stays.')).toBeTruthy();
    const input = screen.getByLabelText('Type web-01 to confirm');
    expect(confirmButton()).toHaveProperty('disabled', true);

    await user.type(input, 'web-0');
    expect(confirmButton()).toHaveProperty('disabled', true);
    await user.type(input, '2');
    expect(confirmButton()).toHaveProperty('disabled', true);
    await user.clear(input);
    await user.type(input, 'WEB-01');
    expect(confirmButton()).toHaveProperty('disabled', true);

    await user.clear(input);
    await user.type(input, 'web-01');
    expect(confirmButton()).toHaveProperty('disabled', false);
    await user.click(confirmButton());
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('asks for the word again the next time it opens', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness word="DELETE" />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    await user.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(confirmButton());
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'open' }));
    expect((screen.getByLabelText('Type DELETE to confirm') as HTMLInputElement).value).toBe('');
    expect(confirmButton()).toHaveProperty('disabled', true);
  });

  it('clears what was typed when cancelled', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness word="DELETE" />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    await user.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'open' }));
    expect(confirmButton()).toHaveProperty('disabled', true);
  });

  it('without a word is a plain confirmation', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderWithProviders(<Harness onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    expect(screen.queryByRole('textbox')).toBeNull();
    await user.click(confirmButton());
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
