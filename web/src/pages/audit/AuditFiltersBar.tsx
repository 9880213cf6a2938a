/** The spec's audit filters: action, administrator, and a date range in Asia/Shanghai days. */
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconFilterOff } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auditQueries, type AuditFilters } from '../../api/resources/audit';
import { actionLabel } from './audit-labels';

export function AuditFiltersBar({ filters, onChange, onClear }: { filters: AuditFilters; onChange: (p: Partial<AuditFilters>) => void; onClear: () => void }) {
  const { t, i18n } = useTranslation();
  const actions = useQuery(auditQueries.actions());
  const options = useMemo(() => {
    const names = new Set(actions.data ?? []);
    if (filters.action) names.add(filters.action);
    return [...names]
      .map((a) => ({ value: a, label: actionLabel(a, t, i18n) }))
      .sort((a, b) => a.label.localeCompare(b.label, i18n.language));
  }, [actions.data, filters.action, t, i18n]);

  // The name is typed: the URL (and the request) follow once typing pauses.
  const [admin, setAdmin] = useState(filters.admin_username ?? '');
  useEffect(() => setAdmin(filters.admin_username ?? ''), [filters.admin_username]);
  const commitAdmin = useDebouncedCallback((v: string) => onChange({ admin_username: v.trim() || undefined }), 400);

  const any = Boolean(filters.action || filters.admin_username || filters.date_from || filters.date_to);
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" role="search" aria-label={t('audit.filters')}>
      <Select
        label={t('audit.action')}
        placeholder={t('audit.anyAction')}
        data={options}
        value={filters.action ?? null}
        onChange={(v) => onChange({ action: v ?? undefined })}
        searchable
        clearable
        nothingFoundMessage={t('nav.paletteEmpty')}
        w={{ base: '100%', sm: 260 }}
        comboboxProps={{ withinPortal: true }}
      />
      <TextInput
        label={t('audit.admin')}
        placeholder={t('audit.adminPlaceholder')}
        value={admin}
        onChange={(e) => {
          setAdmin(e.currentTarget.value);
          commitAdmin(e.currentTarget.value);
        }}
        autoComplete="off"
        w={{ base: '100%', sm: 180 }}
      />
      <TextInput
        type="date"
        label={t('audit.dateFrom')}
        value={filters.date_from ?? ''}
        onChange={(e) => onChange({ date_from: e.currentTarget.value || undefined })}
        w={{ base: '100%', xs: 180 }}
      />
      <TextInput
        type="date"
        label={t('audit.dateTo')}
        value={filters.date_to ?? ''}
        onChange={(e) => onChange({ date_to: e.currentTarget.value || undefined })}
        w={{ base: '100%', xs: 180 }}
      />
      {any && (
        <Button variant="subtle" leftSection={<IconFilterOff size={16} aria-hidden />} onClick={onClear}>
          {t('audit.clear')}
        </Button>
      )}
    </Group>
  );
}
