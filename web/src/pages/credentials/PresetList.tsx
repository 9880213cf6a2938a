/** One kind of preset as rows that wrap into cards on a phone: name, user, usage, actions. */
import { ActionIcon, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconEye, IconServer, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { PresetKind } from '../../api/resources/credentials';
import { RelativeTime } from '../../components/Time';

export interface PresetRow {
  id: number;
  name: string;
  username: string;
  created_at: string;
  public_key?: string;
}

export interface PresetListProps {
  kind: PresetKind;
  rows: PresetRow[];
  usage: Map<number, number>;
  onReveal(row: PresetRow): void;
  onEdit(row: PresetRow): void;
  onDelete(row: PresetRow): void;
  onServers(row: PresetRow): void;
}

export function PresetList({ kind, rows, usage, onReveal, onEdit, onDelete, onServers }: PresetListProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t(kind === 'password' ? 'credentials.tabs.password' : 'credentials.tabs.sshKey')}>
      {rows.map((p) => {
        const count = usage.get(p.id) ?? 0;
        return (
          <Paper key={p.id} component="li" withBorder p="sm" radius="md">
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
                <Text fw={600} style={{ wordBreak: 'break-word' }}>
                  {p.name}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('credentials.username')}: <Text span ff="monospace" size="sm">{p.username}</Text>
                  {' · '}
                  {t('credentials.created')} <RelativeTime value={p.created_at} />
                </Text>
                {kind === 'ssh_key' && (
                  <Text size="xs" c="dimmed" ff="monospace" lineClamp={1} style={{ wordBreak: 'break-all' }} title={p.public_key || undefined}>
                    {p.public_key || t('credentials.noPublicKey')}
                  </Text>
                )}
              </Stack>
              <Group gap="xs" wrap="nowrap">
                <Button
                  variant="subtle"
                  size="sm"
                  leftSection={<IconServer size={16} aria-hidden />}
                  onClick={() => onServers(p)}
                  aria-label={`${t('credentials.servers', { count })} — ${t('credentials.serversUsingNamed', { name: p.name })}`}
                >
                  {t('credentials.servers', { count })}
                </Button>
                <Button variant="light" size="sm" leftSection={<IconEye size={16} aria-hidden />} onClick={() => onReveal(p)} aria-label={t('credentials.revealNamed', { name: p.name })}>
                  {t('credentials.reveal')}
                </Button>
                <Tooltip label={t('common.edit')} withArrow>
                  <ActionIcon variant="subtle" color="gray" size={36} onClick={() => onEdit(p)} aria-label={t('credentials.editNamed', { name: p.name })}>
                    <IconEdit size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('common.delete')} withArrow>
                  <ActionIcon variant="subtle" color="red" size={36} onClick={() => onDelete(p)} aria-label={t('credentials.deleteNamed', { name: p.name })}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
