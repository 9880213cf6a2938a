/** Channels as rows that wrap into cards on a phone: name and type, events, tags, the last test, actions. */
import { ActionIcon, Badge, Button, Group, Paper, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconEdit, IconSend, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Channel } from '../../api/resources/channels';

/** The outcome of the last "Send test" in this session. */
export type TestOutcome = { ok: true; ms: number } | { ok: false; text: string };

export interface ChannelListProps {
  rows: Channel[];
  tests: Map<number, TestOutcome>;
  testing: number | null;
  toggling: number | null;
  onTest(row: Channel): void;
  onToggle(row: Channel, enabled: boolean): void;
  onEdit(row: Channel): void;
  onDelete(row: Channel): void;
}

function LastTest({ outcome }: { outcome: TestOutcome | undefined }) {
  const { t } = useTranslation();
  if (!outcome) return <Text size="sm" c="dimmed">{t('channels.notTested')}</Text>;
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" aria-live="polite">
      {outcome.ok ? <IconCircleCheck size={18} color="var(--mantine-color-teal-7)" aria-hidden /> : <IconCircleX size={18} color="var(--mantine-color-red-7)" aria-hidden />}
      <Text size="sm" c={outcome.ok ? undefined : 'red.8'} style={{ wordBreak: 'break-word' }} data-testid="channel-test-result">
        {outcome.ok ? t('channels.testOk', { ms: outcome.ms }) : t('channels.testFailed', { detail: outcome.text })}
      </Text>
    </Group>
  );
}

export function ChannelList({ rows, tests, testing, toggling, onTest, onToggle, onEdit, onDelete }: ChannelListProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('channels.title')}>
      {rows.map((c) => (
        <Paper key={c.id} component="li" withBorder p="sm" radius="md">
          <Stack gap="xs">
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Group gap="sm" style={{ minWidth: 0, flex: '1 1 14rem' }} wrap="nowrap">
                <Switch checked={c.enabled} disabled={toggling === c.id} onChange={(e) => onToggle(c, e.currentTarget.checked)} aria-label={t('channels.enabledNamed', { name: c.name })} />
                <Text fw={600} style={{ wordBreak: 'break-word' }}>
                  {c.name}
                </Text>
                <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                  {t(`channels.types.${c.type}`)}
                </Badge>
              </Group>
              <Group gap="xs" wrap="nowrap">
                <Button variant="light" size="sm" leftSection={<IconSend size={16} aria-hidden />} loading={testing === c.id} onClick={() => onTest(c)} aria-label={t('channels.sendTestNamed', { name: c.name })}>
                  {t('channels.sendTest')}
                </Button>
                <Tooltip label={t('common.edit')} withArrow>
                  <ActionIcon variant="subtle" color="gray" size={36} onClick={() => onEdit(c)} aria-label={t('channels.editNamed', { name: c.name })}>
                    <IconEdit size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('common.delete')} withArrow>
                  <ActionIcon variant="subtle" color="red" size={36} onClick={() => onDelete(c)} aria-label={t('channels.deleteNamed', { name: c.name })}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </Group>
            <Text size="sm" c="dimmed">
              {t('channels.events')}:{' '}
              {c.events.length ? c.events.map((e) => t(`channels.eventNames.${e}` as 'channels.title', { defaultValue: e })).join(', ') : t('channels.noEvents')}
              {' · '}
              {t('channels.tags')}: {c.tags.length ? c.tags.join(', ') : t('channels.allServers')}
            </Text>
            <Group gap={6} wrap="nowrap" align="flex-start">
              <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                {t('channels.lastTest')}:
              </Text>
              <LastTest outcome={tests.get(c.id)} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
