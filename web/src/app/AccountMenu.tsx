/** The account menu: who is signed in, changing the password, logging out (the login's tokens are revoked). */
import { ActionIcon, Button, Menu, Modal, PasswordInput, Stack, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconKey, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { auth } from '../api/endpoints';
import { readSession, saveSession } from '../api/session';
import { applyFieldErrors, ErrorDisplay } from '../components/ErrorDisplay';

function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm({ initialValues: { current_password: '', new_password: '' } });
  const change = useMutation({
    mutationFn: auth.changePassword,
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('password.done') });
      form.reset();
      onClose();
    },
    onError: (err) => applyFieldErrors(form, err),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('password.title')} centered>
      <form onSubmit={form.onSubmit((v) => change.mutate(v))}>
        <Stack>
          <ErrorDisplay error={change.error} />
          <PasswordInput label={t('password.current')} autoComplete="current-password" required data-autofocus {...form.getInputProps('current_password')} />
          <PasswordInput label={t('password.next')} description={t('password.nextHelp')} autoComplete="new-password" required minLength={8} {...form.getInputProps('new_password')} />
          <Button type="submit" loading={change.isPending}>
            {t('common.save')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

export function AccountMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [changing, setChanging] = useState(false);
  const me = useQuery({ queryKey: ['me'], queryFn: auth.me, staleTime: 300_000 });

  const logout = async () => {
    const s = readSession();
    // The server revokes this login's refresh tokens; signing out here must not wait on it.
    if (s) await auth.logout(s.refresh).catch(() => {});
    saveSession(null);
    queryClient.clear();
    void navigate('/login', { replace: true });
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Tooltip label={t('header.account')} withArrow>
            <ActionIcon variant="subtle" color="gray" size={40} aria-label={t('header.account')}>
              <IconUserCircle size={22} />
            </ActionIcon>
          </Tooltip>
        </Menu.Target>
        <Menu.Dropdown>
          {me.data && <Menu.Label>{t('header.signedInAs', { name: me.data.username })}</Menu.Label>}
          <Menu.Item leftSection={<IconKey size={16} />} onClick={() => setChanging(true)}>
            {t('header.changePassword')}
          </Menu.Item>
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
            {t('header.logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ChangePasswordModal opened={changing} onClose={() => setChanging(false)} />
    </>
  );
}
