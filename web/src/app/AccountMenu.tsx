/** The account menu: who is signed in, the account page (password, TOTP, API key, sessions), logging out (the login's tokens are revoked). */
import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconKey, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { auth } from '../api/endpoints';
import { readSession, saveSession } from '../api/session';

export function AccountMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
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
          <Menu.Item leftSection={<IconKey size={16} />} component={Link} to="/account">
            {t('header.changePassword')}
          </Menu.Item>
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
            {t('header.logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
