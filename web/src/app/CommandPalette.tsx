/** Ctrl+K / ⌘K: jump to any page, or to a server by name or host. */
import { Spotlight, type SpotlightActionData } from '@mantine/spotlight';
import type { KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { IconSearch, IconServer } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { servers } from '../api/endpoints';
import { NAV } from './nav';

export function CommandPalette() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const term = query.trim();
  const found = useQuery({
    queryKey: ['palette', term],
    queryFn: () => servers.search({ q: term, limit: 8 }),
    enabled: term.length > 0,
    staleTime: 30_000,
  });

  const pages: SpotlightActionData[] = NAV.flatMap((g) =>
    g.items.map((i) => ({
      id: `page:${i.path}`,
      label: t(`nav.${i.key}`),
      description: t(`nav.${g.key}`),
      leftSection: <i.icon size={18} />,
      onClick: () => void navigate(i.path),
    })),
  );
  const hosts: SpotlightActionData[] = (found.data?.items ?? []).map((s) => ({
    id: `server:${s.id}`,
    label: s.name,
    description: `${s.host}:${s.port}`,
    leftSection: <IconServer size={18} />,
    keywords: [s.host],
    onClick: () => void navigate(`/servers?server=${s.id}`),
  }));

  // Enter opens the first match even when nothing is highlighted yet: server matches arrive after
  // the query changed, when Spotlight's own "select the first" has already run on an empty list.
  const enterPicksFirst = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    if (document.querySelector('[data-action][data-selected]')) return; // Spotlight triggers the highlighted one
    document.querySelector<HTMLElement>('[data-action]')?.click();
  };

  return (
    <Spotlight
      actions={[...pages, ...hosts]}
      query={query}
      onQueryChange={setQuery}
      shortcut={['mod + K']}
      nothingFound={t('nav.paletteEmpty')}
      highlightQuery
      limit={16}
      searchProps={{ leftSection: <IconSearch size={18} />, placeholder: t('nav.paletteHint'), 'aria-label': t('nav.palette'), onKeyDown: enterPicksFirst }}
    />
  );
}
