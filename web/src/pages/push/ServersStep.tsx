/**
 * Step 2: which servers. Nobody should click 300 rows: a tag adds its whole group, "select all
 * matching" takes every server the search finds (ids come from the service, not from loaded
 * rows), and single servers can still be ticked a page at a time.
 */
import { Badge, Button, Checkbox, Group, Pagination, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconTags } from '@tabler/icons-react';
import { Link } from 'react-router';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { servers } from '../../api/endpoints';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { SshSignal } from '../../components/SshSignal';
import { AgentStatusBadge } from '../../components/StatusBadge';
import { serverQueries } from '../../api/resources/servers';

const PAGE = 25;

export function ServersStep({ selected, onChange }: { selected: Set<number>; onChange: (next: Set<number>) => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...serverQueries.search({ q: debounced || undefined, sort: 'name', order: 'asc', limit: PAGE, offset: (page - 1) * PAGE }),
    placeholderData: keepPreviousData,
  });
  const tags = useQuery(serverQueries.tags());
  const addIds = useMutation({
    mutationFn: servers.ids,
    onSuccess: (res) => onChange(new Set([...selected, ...res.ids])),
  });

  const rows = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('push.serversHelp')}
      </Text>
      <Paper withBorder p="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Badge size="lg" variant="light" aria-live="polite">
            {t('push.selected', { count: selected.size })}
          </Badge>
          <Button variant="subtle" color="gray" disabled={selected.size === 0} onClick={() => onChange(new Set())}>
            {t('push.clearSelection')}
          </Button>
        </Group>
      </Paper>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <Select
          label={t('push.pickTag')}
          placeholder={t('servers.tag')}
          leftSection={<IconTags size={16} aria-hidden />}
          data={(tags.data ?? []).map((tg) => ({ value: tg.tag, label: t('push.addTag', { tag: tg.tag, count: tg.count }) }))}
          value={null}
          onChange={(tag) => tag && addIds.mutate({ tag })}
          searchable
          nothingFoundMessage={t('common.none')}
          style={{ flex: '1 1 220px' }}
        />
        <TextInput
          label={t('servers.searchLabel')}
          placeholder={t('servers.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: '2 1 240px' }}
        />
        <Button variant="light" disabled={total === 0} loading={addIds.isPending} onClick={() => addIds.mutate({ q: debounced || undefined })}>
          {t('push.selectAllMatching', { count: total })}
        </Button>
      </Group>
      <ErrorDisplay error={list.error ?? addIds.error} />
      <Table.ScrollContainer minWidth={320}>
        <Table highlightOnHover aria-label={t('push.stepServers')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={48}>
                <Checkbox
                  aria-label={t('push.selectPage')}
                  checked={allOnPage}
                  indeterminate={!allOnPage && rows.some((r) => selected.has(r.id))}
                  onChange={(e) => {
                    const next = new Set(selected);
                    for (const r of rows) {
                      if (e.currentTarget.checked) next.add(r.id);
                      else next.delete(r.id);
                    }
                    onChange(next);
                  }}
                />
              </Table.Th>
              <Table.Th>{t('servers.name')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('servers.host')}</Table.Th>
              <Table.Th>{t('servers.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>
                  <Checkbox aria-label={r.name} checked={selected.has(r.id)} onChange={(e) => toggle(r.id, e.currentTarget.checked)} />
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{r.name}</Table.Td>
                <Table.Td visibleFrom="sm" ff="monospace" fz="sm">
                  {r.host}:{r.port}
                </Table.Td>
                <Table.Td>
                  <Stack gap={2} align="flex-start">
                    <AgentStatusBadge status={r.status} />
                    <SshSignal server={r} withError={false} />
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total === 0 && !list.isLoading && (
        <Stack gap="xs" align="center">
          <Text size="sm" c="dimmed" ta="center">
            {debounced ? t('servers.noMatch') : t('nextStep.pushNoServers')}
          </Text>
          {!debounced && (
            <Button component={Link} to="/servers?new=1" variant="light" leftSection={<IconPlus size={16} />}>
              {t('nextStep.addServer')}
            </Button>
          )}
        </Stack>
      )}
      {total > PAGE && <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} size="sm" />}
    </Stack>
  );
}
