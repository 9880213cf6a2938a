/**
 * Search (debounced: a request per pause, not per key), tag, status and sort. Every change goes
 * into the URL through `update`, which also sends the table back to page 1.
 */
import { Grid, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback, useHotkeys } from '@mantine/hooks';
import type { FleetSort } from '@server/modules/servers/fleet-query.schemas';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServersView } from './useServersView';
import { useTouchSize } from './useTouchSize';
import { serverQueries } from '../../api/resources/servers';

export const SEARCH_DEBOUNCE_MS = 300;

export function ServersFilters({ view, update }: { view: ServersView; update: (patch: Partial<ServersView>) => void }) {
  const { t } = useTranslation();
  const tags = useQuery({ ...serverQueries.tags(), staleTime: 60_000 });
  const size = useTouchSize();
  const [text, setText] = useState(view.q);
  // `/` focuses the search box, as in most consoles (ignored while typing in another field).
  const searchBox = useRef<HTMLInputElement>(null);
  useHotkeys([['/', () => searchBox.current?.focus()]]);
  const sent = useRef(view.q);
  const send = useDebouncedCallback((q: string) => {
    sent.current = q.trim();
    update({ q: q.trim() });
  }, SEARCH_DEBOUNCE_MS);
  // The search changed elsewhere (cleared filters, back button): show it.
  useEffect(() => {
    if (view.q !== sent.current) {
      sent.current = view.q;
      setText(view.q);
    }
  }, [view.q]);

  const tagData = (tags.data ?? []).map((x) => ({ value: x.tag, label: `${x.tag} (${x.count})` }));
  // A tag from the URL that no server has any more still shows as chosen.
  if (view.tag && !tagData.some((d) => d.value === view.tag)) tagData.unshift({ value: view.tag, label: view.tag });

  return (
    <Grid gap="sm" align="flex-end">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <TextInput
          ref={searchBox}
          size={size}
          label={t('servers.searchLabel')}
          placeholder={t('servers.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          type="search"
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            send(e.currentTarget.value);
          }}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, md: 2 }}>
        <Select
          size={size}
          label={t('servers.tag')}
          placeholder={t('servers.anyTag')}
          data={tagData}
          value={view.tag || null}
          onChange={(v) => update({ tag: v ?? '' })}
          searchable
          clearable
          nothingFoundMessage={t('common.none')}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, md: 2 }}>
        <Select
          size={size}
          label={t('servers.status')}
          placeholder={t('servers.anyStatus')}
          data={(['offline', 'unknown', 'online'] as const).map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={view.status || null}
          onChange={(v) => update({ status: (v ?? '') as ServersView['status'] })}
          clearable
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, md: 2 }}>
        <Select
          size={size}
          label={t('servers.sort')}
          data={[
            { value: 'name', label: t('servers.sortName') },
            { value: 'status', label: t('servers.sortStatus') },
            { value: 'last_heartbeat', label: t('servers.sortHeartbeat') },
            { value: 'created', label: t('servers.sortCreated') },
          ]}
          value={view.sort}
          onChange={(v) => v && update({ sort: v as FleetSort })}
          allowDeselect={false}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, md: 2 }}>
        <Select
          size={size}
          label={t('servers.order')}
          data={[
            { value: 'asc', label: t('servers.ascending') },
            { value: 'desc', label: t('servers.descending') },
          ]}
          value={view.order}
          onChange={(v) => v && update({ order: v as 'asc' | 'desc' })}
          allowDeselect={false}
        />
      </Grid.Col>
    </Grid>
  );
}
