/**
 * A page of audit entries: each row's time opens its detail (a link, so it is reachable by keyboard).
 * Times are Asia/Shanghai, like the date filters above them (the browser's own time on hover).
 */
import { Anchor, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AuditEntry } from '../../api/resources/audit';
import { formatDateTime, formatShanghai } from '../../i18n/format';
import { actionLabel, targetTypeLabel } from './audit-labels';

function target(e: AuditEntry, t: ReturnType<typeof useTranslation>['t'], i18n: ReturnType<typeof useTranslation>['i18n']): string {
  if (!e.target_type) return t('common.notAvailable');
  const type = targetTypeLabel(e.target_type, t, i18n);
  if (e.target_name) return `${type} ${e.target_name}`;
  return e.target_id ? `${type} #${e.target_id}` : type;
}

export function AuditTable({ items, search }: { items: AuditEntry[]; search: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table striped highlightOnHover stickyHeader verticalSpacing="xs" aria-label={t('audit.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('audit.time')}</Table.Th>
            <Table.Th>{t('audit.admin')}</Table.Th>
            <Table.Th>{t('audit.action')}</Table.Th>
            <Table.Th>{t('audit.target')}</Table.Th>
            <Table.Th>{t('audit.ip')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Anchor
                  component={Link}
                  to={{ pathname: `/audit/${e.id}`, search }}
                  title={formatDateTime(e.created_at, i18n.language)}
                  size="sm"
                >
                  {formatShanghai(e.created_at, i18n.language)}
                  <VisuallyHidden> — {t('audit.open', { id: e.id })}</VisuallyHidden>
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {e.admin_username ?? t('common.notAvailable')}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" title={e.action}>
                  {actionLabel(e.action, t, i18n)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={1} style={{ maxWidth: '18rem', wordBreak: 'break-all' }}>
                  {target(e, t, i18n)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {e.ip_address ?? t('common.notAvailable')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
