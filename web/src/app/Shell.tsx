/**
 * The frame around every page: navigation grouped by task (a burger on narrow screens), a header
 * with the system's name, the live connection, language, colour scheme and the account menu, a
 * command palette (Ctrl+K / ⌘K), and a toast for each new alert from the live socket.
 */
import { RequireAuth } from './auth';
import '@mantine/spotlight/styles.css';
import { ActionIcon, AppShell, Badge, Burger, Group, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { spotlight } from '@mantine/spotlight';
import { useQuery } from '@tanstack/react-query';
import { IconSearch } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { settings } from '../api/endpoints';
import { liveSocket } from '../api/socket';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { alertTypeLabel } from '../i18n/enums';
import { AccountMenu } from './AccountMenu';
import { CommandPalette } from './CommandPalette';
import { ColorSchemeToggle, LanguageMenu } from './HeaderControls';
import { LiveIndicator } from './LiveIndicator';
import { SkipLink } from './SkipLink';
import { NAV } from './nav';

function useAlertToasts() {
  const { t } = useTranslation();
  useEffect(() => {
    liveSocket.start();
    const off = liveSocket.onMessage((m) => {
      if (m.type !== 'alert' && m.type !== 'recovery') return;
      const value = m.value === null ? '' : ` ${Math.round(m.value)}%`;
      notifications.show({
        color: m.type === 'alert' ? 'red' : 'teal',
        title: `${t(`status.${m.type === 'alert' ? 'active' : 'recovered'}`)}: ${m.server_name ?? `#${m.server_id}`}`,
        message: `${alertTypeLabel(m.alert_type, t)}${value}`,
        autoClose: 8000,
      });
    });
    return () => {
      off();
      liveSocket.stop();
    };
  }, [t]);
}

export function Shell() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const name = useQuery({
    queryKey: ['settings'],
    queryFn: settings.list,
    select: (all) => all.find((s) => s.key === 'system_name')?.value?.trim(),
    staleTime: 300_000,
  });
  const systemName = name.data || t('app.name');
  useAlertToasts();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the phone drawer closes whenever the page changes
  useEffect(close, [location.pathname]);

  const isActive = (path: string) => (path === '/' ? location.pathname === '/' : location.pathname.startsWith(path));

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <SkipLink target="main" />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            {/* 40 × 40: a thumb-sized target around the 18 px lines. */}
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" w={40} h={40} aria-label={opened ? t('nav.closeMenu') : t('nav.openMenu')} />
            <Text component={Link} to="/" fw={700} truncate="end" c="inherit" td="none" mih={40} lh="40px">
              {systemName}
            </Text>
          </Group>
          <Group gap={4} wrap="nowrap">
            <UnstyledButton onClick={() => spotlight.open()} aria-keyshortcuts="Control+K Meta+K" visibleFrom="sm" px="xs">
              <Group gap={6} c="dimmed">
                <IconSearch size={16} aria-hidden />
                <Text size="sm">{t('nav.palette')}</Text>
                <Badge variant="default" size="sm" radius="sm" aria-hidden>
                  Ctrl K
                </Badge>
              </Group>
            </UnstyledButton>
            <ActionIcon variant="subtle" color="gray" size={40} hiddenFrom="sm" onClick={() => spotlight.open()} aria-label={t('flow.paletteOpen')}>
              <IconSearch size={20} aria-hidden />
            </ActionIcon>
            <LiveIndicator />
            <LanguageMenu />
            <ColorSchemeToggle />
            <AccountMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('nav.overview')}>
        <AppShell.Section grow component={ScrollArea}>
          {NAV.map((group) => (
            <div key={group.key}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
                {t(`nav.${group.key}`)}
              </Text>
              {group.items.map((item) => (
                <NavLink
                  key={item.key}
                  component={Link}
                  to={item.path}
                  label={t(`nav.${item.key}`)}
                  leftSection={<item.icon size={18} stroke={1.6} />}
                  active={isActive(item.path)}
                  aria-current={isActive(item.path) ? 'page' : undefined}
                  style={{ borderRadius: 'var(--mantine-radius-sm)', minHeight: 40 }}
                />
              ))}
            </div>
          ))}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} style={{ outline: 'none' }}>
        <ErrorBoundary resetKey={location.pathname}>
          <Outlet />
        </ErrorBoundary>
      </AppShell.Main>
      <CommandPalette />
    </AppShell>
  );
}

/** The shell for a signed-in operator; anyone else goes to the login page first. */
export function SignedInShell() {
  return (
    <RequireAuth>
      <Shell />
    </RequireAuth>
  );
}
