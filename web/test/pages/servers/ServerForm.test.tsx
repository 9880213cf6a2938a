import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import { renderPage, serverView } from './harness';

const api = vi.hoisted(() => ({
  servers: {
    search: vi.fn(),
    tags: vi.fn(),
    get: vi.fn(),
    create: vi.fn(),
    update: vi.fn(),
    remove: vi.fn(),
    test: vi.fn(),
    forgetHostKey: vi.fn(),
    agentToken: vi.fn(),
  },
  credentials: { sshKeyPresets: vi.fn(), passwordPresets: vi.fn() },
}));
vi.mock('../../../src/api/endpoints', () => api);

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----\n';
const existing = serverView({ id: 7, name: 'app-7', ssh_key_preset_id: null, tags: ['prod'] });

beforeEach(() => {
  localStorage.clear();
  for (const group of [api.servers, api.credentials]) for (const fn of Object.values(group)) fn.mockReset();
  api.servers.search.mockResolvedValue({ items: [existing], total: 1, limit: 50, offset: 0 });
  api.servers.tags.mockResolvedValue([]);
  api.servers.get.mockResolvedValue(existing);
  api.credentials.sshKeyPresets.mockResolvedValue([{ id: 3, name: 'deploy-key', username: 'deploy', public_key: 'ssh-ed25519 AAAA', private_key_set: true, created_at: '' }]);
  api.credentials.passwordPresets.mockResolvedValue([{ id: 4, name: 'ops-pw', username: 'ops', created_at: '' }]);
  api.servers.create.mockImplementation(async (body: { name: string }) => serverView({ id: 99, name: body.name }));
  api.servers.update.mockResolvedValue(existing);
});

async function openCreate() {
  renderPage();
  await userEvent.click(await screen.findByRole('button', { name: 'Add server' }));
  return screen.findByRole('dialog', { name: 'Add a server' });
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
}

describe('the server form', () => {
  it('creates a server with an inline private key', async () => {
    await openCreate();
    fill('Name', 'web-9');
    fill('Host', '10.1.2.3');
    fill('Port', '2222');
    fill('Username', 'deploy');
    fill('Target path', '/srv/www');
    fill('Private key', KEY);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.servers.create).toHaveBeenCalledTimes(1));
    expect(api.servers.create.mock.calls[0][0]).toEqual({
      name: 'web-9', host: '10.1.2.3', port: 2222, username: 'deploy', tags: [], target_path: '/srv/www', auth_type: 'key', private_key: KEY,
    });
  });

  it('reads the private key from a file', async () => {
    await openCreate();
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, new File([KEY], 'id_ed25519'));
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Private key' }) as HTMLTextAreaElement).value).toBe(KEY));
  });

  it('creates a server with an SSH key preset instead', async () => {
    await openCreate();
    fill('Name', 'web-10');
    fill('Host', 'web10.example');
    await userEvent.click(screen.getByLabelText('A saved preset'));
    await userEvent.click(screen.getByLabelText('SSH key preset', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'deploy-key (deploy)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.servers.create).toHaveBeenCalledTimes(1));
    const body = api.servers.create.mock.calls[0][0];
    expect(body).toMatchObject({ name: 'web-10', host: 'web10.example', port: 22, auth_type: 'key', ssh_key_preset_id: 3 });
    expect(body).not.toHaveProperty('private_key');
  });

  it('sends an inline password for password authentication', async () => {
    await openCreate();
    fill('Name', 'pw-1');
    fill('Host', 'pw.example');
    await userEvent.click(screen.getByLabelText('Password', { selector: 'input[type="radio"]' }));
    fireEvent.change(screen.getByLabelText('Password', { selector: 'input[type="password"]' }), { target: { value: 's3cret' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.servers.create).toHaveBeenCalledTimes(1));
    expect(api.servers.create.mock.calls[0][0]).toMatchObject({ auth_type: 'password', password: 's3cret' });
    expect(api.servers.create.mock.calls[0][0]).not.toHaveProperty('private_key');
  });

  it('puts the field errors of a 422 on the fields', async () => {
    api.servers.create.mockRejectedValue(new ApiError(422, 'Validation failed', [{ path: 'body.name', message: 'Name is already taken by another' }]));
    await openCreate();
    fill('Name', 'dup');
    fill('Host', 'h');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is already taken by another')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('shows other refusals as an error', async () => {
    api.servers.create.mockRejectedValue(new ApiError(400, 'The private key is not in a supported format'));
    await openCreate();
    fill('Name', 'k');
    fill('Host', 'h');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The private key is not in a supported format')).toBeTruthy();
  });

  it('asks for the current password when credential_reauth wants it, then sends it along', async () => {
    api.servers.create
      .mockRejectedValueOnce(new ApiError(400, 'current_password is required for attaching a password preset (credential_reauth is on)', [], null, 'reauth_required'))
      .mockResolvedValueOnce(serverView({ id: 5, name: 'pw-2' }));
    await openCreate();
    fill('Name', 'pw-2');
    fill('Host', 'h');
    await userEvent.click(screen.getByLabelText('Password', { selector: 'input[type="radio"]' }));
    await userEvent.click(screen.getByLabelText('A saved preset'));
    await userEvent.click(screen.getByLabelText('Password preset', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'ops-pw (ops)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.change(await screen.findByLabelText('Current password', { selector: 'input' }), { target: { value: 'adminpass' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.servers.create).toHaveBeenCalledTimes(2));
    expect(api.servers.create.mock.calls[1][0]).toMatchObject({ password_preset_id: 4, current_password: 'adminpass' });
  });

  it('on edit leaves an empty secret out, so the stored one stays', async () => {
    renderPage('/servers?server=7');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit server' });
    expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('app-7');
    fill('Host', '10.9.9.9');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.servers.update).toHaveBeenCalledTimes(1));
    const [id, body] = api.servers.update.mock.calls[0];
    expect(id).toBe(7);
    expect(body).toMatchObject({ name: 'app-7', host: '10.9.9.9', tags: ['prod'] });
    expect(body).not.toHaveProperty('private_key');
    expect(body).not.toHaveProperty('password');
  });
});
