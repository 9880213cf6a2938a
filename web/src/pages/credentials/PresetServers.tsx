/** The servers that use one preset, each a link to its detail on the servers page. */
import { Anchor, Button, Drawer, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconServer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { credentialQueries, type PresetKind } from '../../api/resources/credentials';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState } from '../../components/Page';
import { StatusBadge } from '../../components/StatusBadge';

export interface ServersTarget {
  kind: PresetKind;
  id: number;
  name: string;
}

function ServersList({ target }: { target: ServersTarget }) {
  const { t } = useTranslation();
  const servers = useQuery(credentialQueries.servers(target.kind, target.id));
  if (servers.error) return <ErrorDisplay error={servers.error} onRetry={() => void servers.refetch()} />;
  if (!servers.data) return <Skeleton height={80} aria-label={t('common.loading')} />;
  if (servers.data.length === 0) {
    return (
      <EmptyState>
        <Text>{t('credentials.noServers')}</Text>
        <Button component={Link} to="/servers" variant="light" leftSection={<IconServer size={16} />}>
          {t('credentials.addServer')}
        </Button>
      </EmptyState>
    );
  }
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {servers.data.map((s) => (
        <li key={s.id}>
          <Group justify="space-between" wrap="nowrap" gap="xs" py={6}>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Anchor component={Link} to={`/servers?server=${s.id}`} aria-label={t('credentials.openServer', { name: s.name })} fw={500}>
                {s.name}
              </Anchor>
              <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {s.username}@{s.host}:{s.port}
              </Text>
            </Stack>
            <StatusBadge status={s.status} />
          </Group>
        </li>
      ))}
    </Stack>
  );
}

export function PresetServers({ target, onClose }: { target: ServersTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer opened={target !== null} onClose={onClose} position="right" title={target ? t('credentials.serversOf', { name: target.name }) : ''}>
      {target && <ServersList target={target} />}
    </Drawer>
  );
}
