/**
 * One page of servers (the server pages and sorts; this only shows). Narrow screens keep name
 * and status and show the address under the name, so the page never scrolls sideways.
 */
import { Anchor, Badge, Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import type { FleetSort } from '@server/modules/servers/fleet-query.schemas';
import type { ServerView } from '@server/modules/servers/servers.schemas';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SshSignal } from '../../components/SshSignal';
import { AgentStatusBadge } from '../../components/StatusBadge';
import { RelativeTime } from '../../components/Time';
import type { ServersView } from './useServersView';

const MAX_TAGS = 3;

function SortHeader({ sort, view, onSort, children, visibleFrom }: {
  sort: FleetSort;
  view: ServersView;
  onSort: (sort: FleetSort) => void;
  children: ReactNode;
  visibleFrom?: 'sm' | 'md';
}) {
  const active = view.sort === sort;
  const Icon = active ? (view.order === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (view.order === 'asc' ? 'ascending' : 'descending') : 'none'} visibleFrom={visibleFrom}>
      <UnstyledButton onClick={() => onSort(sort)} fw={700} fz="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4, minHeight: 40 }}>
        {children}
        <Icon size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}

function Tags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  const shown = tags.slice(0, MAX_TAGS);
  return (
    <Group gap={4} wrap="wrap">
      {shown.map((tag) => (
        <Badge key={tag} variant="light" color="gray" radius="sm" size="sm" styles={{ label: { textTransform: 'none' } }}>
          {tag}
        </Badge>
      ))}
      {tags.length > MAX_TAGS && (
        <Text span size="xs" c="dimmed" title={tags.slice(MAX_TAGS).join(', ')}>
          +{tags.length - MAX_TAGS}
        </Text>
      )}
    </Group>
  );
}

export function ServersTable({ items, view, onSort, hrefFor, busy }: {
  items: ServerView[];
  view: ServersView;
  onSort: (sort: FleetSort) => void;
  hrefFor: (id: number) => string;
  busy: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Table
      aria-label={t('servers.title')}
      aria-busy={busy}
      highlightOnHover
      verticalSpacing="xs"
      layout="fixed"
      style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 120ms' }}
    >
      <Table.Thead>
        <Table.Tr>
          <SortHeader sort="name" view={view} onSort={onSort}>
            {t('servers.name')}
          </SortHeader>
          <Table.Th visibleFrom="sm">{t('servers.host')}</Table.Th>
          <Table.Th visibleFrom="md" w={110}>
            {t('servers.user')}
          </Table.Th>
          <Table.Th visibleFrom="md">{t('servers.tags')}</Table.Th>
          <SortHeader sort="status" view={view} onSort={onSort}>
            {t('servers.status')}
          </SortHeader>
          <SortHeader sort="last_heartbeat" view={view} onSort={onSort} visibleFrom="sm">
            {t('servers.lastHeartbeat')}
          </SortHeader>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((s) => (
          <Table.Tr key={s.id}>
            <Table.Td>
              <Anchor
                component={Link}
                to={hrefFor(s.id)}
                fw={600}
                size="sm"
                py={{ base: 10, sm: 2 }}
                style={{ display: 'inline-block', maxWidth: '100%', overflowWrap: 'anywhere' }}
              >
                {s.name}
              </Anchor>
              <Text size="xs" c="dimmed" ff="monospace" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                {s.username}@{s.host}:{s.port}
              </Text>
            </Table.Td>
            <Table.Td visibleFrom="sm">
              <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {s.host}:{s.port}
              </Text>
            </Table.Td>
            <Table.Td visibleFrom="md">
              <Text size="sm" truncate="end">
                {s.username}
              </Text>
            </Table.Td>
            <Table.Td visibleFrom="md">
              <Tags tags={s.tags} />
            </Table.Td>
            <Table.Td>
              <Stack gap={2} align="flex-start">
                <AgentStatusBadge status={s.status} />
                <SshSignal server={s} withError={false} />
              </Stack>
            </Table.Td>
            <Table.Td visibleFrom="sm">
              <RelativeTime value={s.last_heartbeat_at} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
