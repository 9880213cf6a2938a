/**
 * The fleet, a page at a time: the service searches, filters, sorts and pages (10,000 servers
 * stay as fast as 10), the view lives in the URL and in localStorage, and the list refreshes on
 * its own (every 30 s, and when the live socket reports an alert or a recovery). A server opens
 * in a drawer (`?server=<id>`) with its tests, host key, edit, delete and agent one-liner.
 */
import { Button, Drawer, Group, Pagination, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFilterOff, IconPlus, IconServer } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { useLiveInvalidation } from '../../api/live-invalidation';
import { ServerDetail } from './ServerDetail';
import { ServerForm } from './ServerForm';
import { ServersFilters } from './ServersFilters';
import { ServersTable } from './ServersTable';
import { DEFAULT_VIEW, hasFilters, useServersView } from './useServersView';
import { PAGE_SIZE, searchQueryOf } from './servers-query';
import { serverQueries } from '../../api/resources/servers';

const REFRESH_MS = 30_000;

export default function ServersPage() {
  const { t } = useTranslation();
  const narrow = useMediaQuery('(max-width: 48em)');
  const navigate = useNavigate();
  const { view, update, serverId, creating, setCreating, params } = useServersView();
  const [editing, setEditing] = useState(false);

  const query = searchQueryOf(view);
  const list = useQuery({
    ...serverQueries.search(query),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const detail = useQuery({
    ...serverQueries.one(serverId ?? 0),
    enabled: serverId !== null,
    // The row already shows what the drawer needs first: no blank drawer while it loads.
    placeholderData: () => list.data?.items.find((s) => s.id === serverId),
  });
  useLiveInvalidation([['servers']], (m) => m.type === 'alert' || m.type === 'recovery');

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // Servers were deleted (here or elsewhere) and this page is past the end: go to the last one.
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && view.page > pages) update({ page: pages });
  }, [list.data, list.isPlaceholderData, view.page, pages, update]);

  const hrefFor = (id: number) => {
    const p = new URLSearchParams(params);
    p.set('server', String(id));
    return `?${p.toString()}`;
  };
  const closeDrawer = () => {
    setEditing(false);
    const p = new URLSearchParams(params);
    p.delete('new');
    p.delete('server');
    if (p.toString() !== params.toString()) void navigate({ search: `?${p.toString()}` });
  };

  const server = detail.data ?? null;
  const drawerTitle = creating ? t('servers.create') : editing ? t('servers.edit') : (server?.name ?? t('common.loading'));

  return (
    <Page
      title={t('servers.title')}
      actions={
        <Button size={narrow ? 'md' : 'sm'} leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
          {t('servers.add')}
        </Button>
      }
    >
      <ServersFilters view={view} update={update} />
      <ErrorDisplay error={list.error} onRetry={() => void list.refetch()} />

      {list.isPending ? (
        <Stack gap={6} aria-busy>
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <Skeleton key={i} h={36} />
          ))}
        </Stack>
      ) : list.data ? (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" role="status">
            {t('servers.count', { count: total })}
          </Text>
          {total === 0 && !hasFilters(view) ? (
            <EmptyState>
              <IconServer size={40} stroke={1.5} aria-hidden />
              <Text>{t('servers.empty')}</Text>
              <Button size={narrow ? 'md' : 'sm'} leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                {t('nextStep.addServer')}
              </Button>
            </EmptyState>
          ) : total === 0 ? (
            <EmptyState>
              <Text>{t('servers.noMatch')}</Text>
              <Button size={narrow ? 'md' : 'sm'} variant="light" leftSection={<IconFilterOff size={16} />} onClick={() => update({ ...DEFAULT_VIEW, sort: view.sort, order: view.order })}>
                {t('servers.clearFilters')}
              </Button>
            </EmptyState>
          ) : (
            <ServersTable
              items={list.data.items}
              view={view}
              onSort={(sort) => update(sort === view.sort ? { order: view.order === 'asc' ? 'desc' : 'asc' } : { sort, order: 'asc' })}
              hrefFor={hrefFor}
              busy={list.isPlaceholderData}
            />
          )}
          {pages > 1 && (
            <Group justify="space-between" gap="xs">
              <Text size="sm" c="dimmed">
                {t('common.page', { page: view.page, pages })}
              </Text>
              <nav aria-label={t('servers.pages')}>
                <Pagination
                  total={pages}
                  value={Math.min(view.page, pages)}
                  onChange={(page) => update({ page })}
                  siblings={narrow ? 0 : 1}
                  size={narrow ? 'lg' : 'md'}
                  gap={narrow ? 4 : 8}
                />
              </nav>
            </Group>
          )}
        </Stack>
      ) : null}

      <Drawer
        opened={creating || serverId !== null}
        onClose={closeDrawer}
        title={drawerTitle}
        position="right"
        size={narrow ? '100%' : 'lg'}
        styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)', overflowWrap: 'anywhere' } }}
      >
        {creating ? (
          <ServerForm
            server={null}
            onCancel={() => setCreating(false)}
            onSaved={(s) => {
              // One URL change: the form closes and the new server opens.
              const p = new URLSearchParams(params);
              p.delete('new');
              p.set('server', String(s.id));
              void navigate({ search: `?${p.toString()}` });
            }}
          />
        ) : server && editing ? (
          <ServerForm server={server} onCancel={() => setEditing(false)} onSaved={() => setEditing(false)} />
        ) : server ? (
          <ServerDetail server={server} onEdit={() => setEditing(true)} onDeleted={closeDrawer} />
        ) : detail.error ? (
          <ErrorDisplay error={detail.error} onRetry={() => void detail.refetch()} />
        ) : (
          <Skeleton h={200} />
        )}
      </Drawer>
    </Page>
  );
}
