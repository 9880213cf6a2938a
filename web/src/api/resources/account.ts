/** Administrators, the signed-in administrator's own account (password, TOTP, sessions) and the API key. */
import { queryOptions } from '@tanstack/react-query';
import { replaceSession } from '../client';
import { call, type Body, type Reply } from '../typed';

export type Admin = Reply<'GET /api/admins'>[number];

export const accountQueries = {
  all: ['account'] as const,
  admins: () => queryOptions({ queryKey: ['account', 'admins'], queryFn: () => call('GET /api/admins') }),
  // The account menu reads ['me'] too: the same key keeps the two in step.
  me: () => queryOptions({ queryKey: ['me'], queryFn: () => call('GET /api/auth/me'), staleTime: 300_000 }),
};

export const accountApi = {
  createAdmin: (body: Body<'POST /api/admins'>) => call('POST /api/admins', { body }),
  deleteAdmin: (id: number) => call('DELETE /api/admins/{id}', { params: { id } }),
  changePassword: (body: Body<'POST /api/auth/change-password'>) => call('POST /api/auth/change-password', { body }),
  totpSetup: () => call('POST /api/auth/totp/setup'),
  totpEnable: (body: Body<'POST /api/auth/totp/enable'>) => call('POST /api/auth/totp/enable', { body }),
  totpDisable: (current_password: string) => call('POST /api/auth/totp/disable', { body: { current_password } }),
  revealApiKey: (currentPassword: string) => call('POST /api/settings/api-key/reveal', { body: { current_password: currentPassword } }),
  rotateApiKey: (current_password: string) => call('POST /api/settings/api-key/rotate', { body: { current_password } }),
  /** Every other session ends; this tab carries on with the new pair the service answers. */
  signOutOthers: () => replaceSession('/api/auth/sign-out-others'),
};
