/** One audit entry in full, at `/audit/{id}` (a URL that can be pasted), over the list. */
import { Drawer, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { auditQueries } from '../../api/resources/audit';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { formatDateTime, formatShanghai } from '../../i18n/format';
import { actionLabel, targetTypeLabel } from './audit-labels';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" style={{ whiteSpace: 'nowrap', verticalAlign: 'top', width: '35%' }}>
        {label}
      </Table.Th>
      <Table.Td style={{ wordBreak: 'break-word' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

export function AuditEntryDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const entry = useQuery({ ...auditQueries.entry(id ?? 0), enabled: id !== null });
  const e = entry.data;
  const none = <Text span c="dimmed">{t('common.notAvailable')}</Text>;
  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="lg" title={id !== null ? t('audit.entryTitle', { id }) : ''}>
      {entry.error && <ErrorDisplay error={entry.error} onRetry={() => void entry.refetch()} />}
      {entry.isPending && id !== null && <Skeleton height={200} aria-label={t('common.loading')} />}
      {e && (
        <Stack gap="sm">
          <Table withRowBorders verticalSpacing="xs">
            <Table.Tbody>
              <Field label={t('audit.fields.id')}>{e.id}</Field>
              <Field label={t('audit.fields.created_at')}>
                <time dateTime={e.created_at}>{formatDateTime(e.created_at, i18n.language)}</time>
              </Field>
              <Field label={t('audit.fields.shanghai')}>{formatShanghai(e.created_at, i18n.language)}</Field>
              <Field label={t('audit.fields.admin_username')}>{e.admin_username ?? none}</Field>
              <Field label={t('audit.fields.action')}>{actionLabel(e.action, t, i18n)}</Field>
              <Field label={t('audit.fields.action_code')}>
                <Text span ff="monospace" size="sm">
                  {e.action}
                </Text>
              </Field>
              <Field label={t('audit.fields.target_type')}>{e.target_type ? targetTypeLabel(e.target_type, t, i18n) : none}</Field>
              <Field label={t('audit.fields.target_id')}>{e.target_id ?? none}</Field>
              {e.target_type === 'server' && (
                <Field label={t('audit.fields.target_name')}>{e.target_name ?? <Text span c="dimmed">{t('audit.targetGone')}</Text>}</Field>
              )}
              <Field label={t('audit.fields.ip_address')}>
                <Text span ff="monospace" size="sm">
                  {e.ip_address ?? t('common.notAvailable')}
                </Text>
              </Field>
              <Field label={t('audit.fields.detail')}>
                {e.detail ? (
                  <Text span ff="monospace" size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {e.detail}
                  </Text>
                ) : (
                  none
                )}
              </Field>
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Drawer>
  );
}
