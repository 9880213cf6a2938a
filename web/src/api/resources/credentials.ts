/** Password presets, SSH key presets and the servers that use them. */
import { queryOptions } from '@tanstack/react-query';
import { call, type Body, type Reply } from '../typed';

export type PasswordPreset = Reply<'GET /api/presets'>[number];
export type SshKeyPreset = Reply<'GET /api/ssh-key-presets'>[number];
export type PresetServer = Reply<'GET /api/presets/{id}/servers'>[number];
export type PresetKind = 'password' | 'ssh_key';

export const credentialQueries = {
  all: ['credentials'] as const,
  passwordPresets: () => queryOptions({ queryKey: ['credentials', 'password'], queryFn: () => call('GET /api/presets') }),
  sshKeyPresets: () => queryOptions({ queryKey: ['credentials', 'ssh_key'], queryFn: () => call('GET /api/ssh-key-presets') }),
  usage: () => queryOptions({ queryKey: ['credentials', 'usage'], queryFn: () => call('GET /api/servers/preset-usage') }),
  servers: (kind: PresetKind, id: number) =>
    queryOptions({
      queryKey: ['credentials', kind, id, 'servers'],
      queryFn: () =>
        kind === 'password'
          ? call('GET /api/presets/{id}/servers', { params: { id } })
          : call('GET /api/ssh-key-presets/{id}/servers', { params: { id } }),
    }),
};

export const credentialsApi = {
  createPassword: (body: Body<'POST /api/presets'>) => call('POST /api/presets', { body }),
  updatePassword: (id: number, body: Body<'PUT /api/presets/{id}'>) => call('PUT /api/presets/{id}', { params: { id }, body }),
  removePassword: (id: number) => call('DELETE /api/presets/{id}', { params: { id } }),
  revealPassword: (id: number, current_password: string) =>
    call('POST /api/presets/{id}/reveal', { params: { id }, body: { current_password } }),
  createSshKey: (body: Body<'POST /api/ssh-key-presets'>) => call('POST /api/ssh-key-presets', { body }),
  updateSshKey: (id: number, body: Body<'PUT /api/ssh-key-presets/{id}'>) => call('PUT /api/ssh-key-presets/{id}', { params: { id }, body }),
  removeSshKey: (id: number) => call('DELETE /api/ssh-key-presets/{id}', { params: { id } }),
  revealSshKey: (id: number, current_password: string) =>
    call('POST /api/ssh-key-presets/{id}/reveal', { params: { id }, body: { current_password } }),
};
