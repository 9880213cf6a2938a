/**
 * Notification channels: the list (enable switch, events, tags, the last test), a form per type
 * built from the service's schemas, a test message on demand showing the provider's own error
 * text, and delete with a confirmation. Secrets are revealed only with the password.
 */
import { Button, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconBroadcast, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Channel, channelQueries, channelsApi } from '../../api/resources/channels';
import { ApiError } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { errorText } from '../../i18n/error-text';
import { ChannelForm } from './ChannelForm';
import { ChannelList, type TestOutcome } from './ChannelList';

export default function ChannelsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const list = useQuery(channelQueries.list());
  const types = useQuery(channelQueries.types());
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [tests, setTests] = useState<Map<number, TestOutcome>>(new Map());
  const record = (id: number, outcome: TestOutcome) => setTests((m) => new Map(m).set(id, outcome));

  const test = useMutation({
    mutationFn: (c: Channel) => channelsApi.test(c.id),
    onSuccess: (res, c) => record(c.id, { ok: true, ms: res.ms }),
    // The provider's own words are what the operator needs to fix the channel.
    onError: (err, c) => record(c.id, { ok: false, text: err instanceof ApiError && err.code === 'channel_delivery_failed' ? err.detail : errorText(err, t) }),
  });
  const toggle = useMutation({
    mutationFn: (p: { c: Channel; enabled: boolean }) => channelsApi.update(p.c.id, { enabled: p.enabled }),
    onSettled: () => client.invalidateQueries({ queryKey: channelQueries.all }),
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });
  const remove = useMutation({
    mutationFn: (c: Channel) => channelsApi.remove(c.id),
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('channels.deleted') });
      setDeleting(null);
      await client.invalidateQueries({ queryKey: channelQueries.all });
    },
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });

  const add = () => setEditing('new');
  const error = list.error ?? types.error;
  const rows = list.data;

  return (
    <Page
      title={t('channels.title')}
      actions={
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={add} disabled={!types.data}>
          {t('channels.add')}
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        {t('channels.intro')}
      </Text>
      {error && (
        <ErrorDisplay
          error={error}
          onRetry={() => {
            void list.refetch();
            void types.refetch();
          }}
        />
      )}
      {list.isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={88} />
          ))}
        </Stack>
      ) : rows && rows.length > 0 ? (
        <ChannelList
          rows={rows}
          tests={tests}
          testing={test.isPending ? (test.variables?.id ?? null) : null}
          toggling={toggle.isPending ? (toggle.variables?.c.id ?? null) : null}
          onTest={(c) => test.mutate(c)}
          onToggle={(c, enabled) => toggle.mutate({ c, enabled })}
          onEdit={(c) => setEditing(c)}
          onDelete={(c) => {
            remove.reset();
            setDeleting(c);
          }}
        />
      ) : (
        rows && (
          <EmptyState>
            <IconBroadcast size={32} aria-hidden />
            <Text>{t('channels.empty')}</Text>
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={add} disabled={!types.data}>
              {t('channels.add')}
            </Button>
          </EmptyState>
        )
      )}
      {editing && types.data && (
        <ChannelForm
          key={editing === 'new' ? 'new' : editing.id}
          channel={editing === 'new' ? null : editing}
          types={types.data.types}
          events={types.data.events}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? t('channels.deleteTitle', { name: deleting.name }) : ''}
        message={deleting ? t('channels.deleteMessage', { name: deleting.name }) : ''}
        confirmLabel={deleting ? t('channels.deleteNamed', { name: deleting.name }) : ''}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Page>
  );
}
