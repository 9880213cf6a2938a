/** Errors as the console shows them, and a 422's field errors placed on the form's fields. */
import { Button, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../../src/api/errors';
import { applyFieldErrors, ErrorDisplay } from '../../src/components/ErrorDisplay';
import i18n from '../../src/i18n';
import { renderWithProviders } from '../render';

describe('ErrorDisplay', () => {
  it('shows nothing without an error', () => {
    renderWithProviders(<ErrorDisplay error={null} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the API’s detail verbatim', () => {
    renderWithProviders(<ErrorDisplay error={new ApiError(409, 'A server named web-01 exists')} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('A server named web-01 exists');
    expect(alert.textContent).not.toContain('Some fields need attention.');
  });

  it('points to the fields when a 422 names them', () => {
    renderWithProviders(<ErrorDisplay error={new ApiError(422, 'Validation failed: body.name', [{ path: 'body.name', message: 'too short' }])} />);
    expect(screen.getByRole('alert').textContent).toContain('Some fields need attention.');
  });

  it('does not point to fields when the 422 names none (a bad query parameter)', () => {
    renderWithProviders(<ErrorDisplay error={new ApiError(422, 'Validation failed: querystring.limit', [{ path: 'querystring.limit', message: 'too big' }])} />);
    expect(screen.getByRole('alert').textContent).toContain('Validation failed: querystring.limit');
    expect(screen.getByRole('alert').textContent).not.toContain('Some fields need attention.');
  });

  it('shows network trouble with a retry', async () => {
    const onRetry = vi.fn();
    renderWithProviders(<ErrorDisplay error={new NetworkError()} onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toContain('The service cannot be reached');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows a known code in the operator’s language, not the English detail', async () => {
    const err = new ApiError(404, 'Server not found', [], null, 'server_not_found');
    const { unmount } = renderWithProviders(<ErrorDisplay error={err} />);
    expect(screen.getByRole('alert').textContent).toContain('This server no longer exists.');
    unmount();
    await i18n.changeLanguage('zh-CN');
    try {
      renderWithProviders(<ErrorDisplay error={err} />);
      expect(screen.getByRole('alert').textContent).toContain('该服务器已不存在。');
      expect(screen.getByRole('alert').textContent).not.toContain('Server not found');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('keeps the detail inside the translation where it names the cause (rsync’s message)', () => {
    renderWithProviders(<ErrorDisplay error={new ApiError(400, 'rsync: connection unexpectedly closed', [], null, 'rsync_failed')} />);
    expect(screen.getByRole('alert').textContent).toContain('rsync failed: rsync: connection unexpectedly closed');
  });

  it('shows the detail for a code the console does not know (a newer service)', () => {
    renderWithProviders(<ErrorDisplay error={new ApiError(409, 'The widget is frobnicated', [], null, 'widget_frobnicated')} />);
    expect(screen.getByRole('alert').textContent).toContain('The widget is frobnicated');
  });

  it('shows any other error’s message', () => {
    renderWithProviders(<ErrorDisplay error={new Error('boom')} title="Could not save" />);
    expect(screen.getByRole('alert').textContent).toContain('Could not save');
    expect(screen.getByRole('alert').textContent).toContain('boom');
  });
});

/** A form whose submit fails with `error`, as a page's would. */
function ServerForm({ error, onPlaced }: { error: unknown; onPlaced: (placed: boolean) => void }) {
  const form = useForm({ initialValues: { name: '', host: '', port: 22 } });
  const [shown, setShown] = useState<unknown>(null);
  return (
    <form
      onSubmit={form.onSubmit(() => {
        onPlaced(applyFieldErrors(form, error));
        setShown(error);
      })}
    >
      <ErrorDisplay error={shown} />
      <TextInput label="Name" {...form.getInputProps('name')} />
      <TextInput label="Host" {...form.getInputProps('host')} />
      <Button type="submit">Save</Button>
    </form>
  );
}

describe('applyFieldErrors', () => {
  it('puts each 422 field error on the field it names', async () => {
    const onPlaced = vi.fn();
    const err = new ApiError(422, 'Validation failed: body.name must not be empty', [
      { path: 'body.name', message: 'must not be empty' },
      { path: 'body.host', message: 'must be a host name or address' },
    ]);
    renderWithProviders(<ServerForm error={err} onPlaced={onPlaced} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(onPlaced).toHaveBeenCalledWith(true);
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('must not be empty')).toBeTruthy();
    expect(screen.getByLabelText('Host').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('must be a host name or address')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Some fields need attention.');
  });

  it('places nothing for errors that name no form field', async () => {
    const onPlaced = vi.fn();
    const cases: unknown[] = [
      new ApiError(409, 'exists'),
      new NetworkError(),
      new ApiError(422, 'Validation failed: querystring.limit', [{ path: 'querystring.limit', message: 'must be an integer' }]),
    ];
    for (const err of cases) {
      const { unmount } = renderWithProviders(<ServerForm error={err} onPlaced={onPlaced} />);
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).not.toBe('true');
      unmount();
    }
    expect(onPlaced.mock.calls).toEqual([[false], [false], [false]]);
  });
});
