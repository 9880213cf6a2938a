/**
 * The audit log: the spec's filters (action, administrator, Asia/Shanghai days) and the page in
 * the URL, 50 entries a page, one entry's detail at `/audit/{id}`, and the CSV of every entry
 * matching the filters (made by the service, streamed).
 */
import { Button, Group, Pagination, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { IconDownload, IconFilterOff, IconListSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { auditQueries, downloadAuditCsv } from '../../api/resources/audit';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { errorText } from '../../i18n/error-text';
import { PAGE_SIZE, useAuditView } from './audit-filters';
import { AuditEntryDrawer } from './AuditEntryDrawer';
import { AuditFiltersBar } from './AuditFiltersBar';
import { AuditTable } from './AuditTable';

export default function AuditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { view, search, setFilters, setPage, clear } = useAuditView();
  const idMatch = /^\/audit\/(\d+)\/?$/.exec(pathname);
  const openId = idMatch ? Number(idMatch[1]) : null;

  const page = useQuery(auditQueries.page(view.filters, PAGE_SIZE, (view.page - 1) * PAGE_SIZE));
  const exportCsv = useMutation({
    mutationFn: () => downloadAuditCsv(view.filters),
    onSuccess: () => notifications.show({ color: 'teal', message: t('audit.exported') }),
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });

  const total = page.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = Object.keys(view.filters).length > 0;
  return (
    <Page
      title={t('audit.title')}
      actions={
        <Button variant="default" leftSection={<IconDownload size={18} aria-hidden />} loading={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
          {t('audit.export')}
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        {t('audit.intro')}
      </Text>
      <AuditFiltersBar filters={view.filters} onChange={setFilters} onClear={clear} />
      {page.error && <ErrorDisplay error={page.error} onRetry={() => void page.refetch()} />}
      {page.isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Stack>
      ) : page.data && page.data.items.length > 0 ? (
        <>
          <Text size="sm" fw={500} aria-live="polite">
            {t('audit.entries', { count: total })}
          </Text>
          <AuditTable items={page.data.items} search={search ? `?${search}` : ''} />
          {pages > 1 && (
            <Group justify="center" component="nav" aria-label={t('audit.pagination')}>
              <Pagination
                total={pages}
                value={Math.min(view.page, pages)}
                onChange={setPage}
                size="md"
                siblings={1}
                boundaries={1}
                getControlProps={(control) => ({ 'aria-label': t(`audit.pageControl.${control}`) })}
                getItemProps={(p) => ({ 'aria-label': t('common.page', { page: p, pages }), 'aria-current': p === view.page ? 'page' : undefined })}
              />
            </Group>
          )}
        </>
      ) : (
        page.data && (
          <EmptyState>
            <IconListSearch size={32} aria-hidden />
            <Text>{filtered ? t('audit.empty') : t('audit.emptyAll')}</Text>
            {filtered && (
              <Button variant="light" leftSection={<IconFilterOff size={16} />} onClick={clear}>
                {t('audit.clear')}
              </Button>
            )}
          </EmptyState>
        )
      )}
      <AuditEntryDrawer id={openId} onClose={() => void navigate({ pathname: '/audit', search: search ? `?${search}` : '' })} />
    </Page>
  );
}
