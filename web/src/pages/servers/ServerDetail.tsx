/**
 * One server: its details, a connection test, the pinned host key (trust on first use; forgetting
 * it trusts the next key shown), edit, delete (the name typed to confirm) and the agent one-liner.
 */
import { Alert, Badge, Button, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ServerView } from '@server/modules/servers/servers.schemas';
import { IconKeyOff, IconPencil, IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { servers } from '../../api/endpoints';
import { useStartWork } from '../../api/start-work';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyText } from '../../components/CopyText';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { SshSignal, useSshErrorText } from '../../components/SshSignal';
import { AgentStatusBadge } from '../../components/StatusBadge';
import { RelativeTime } from '../../components/Time';
import { AgentInstall } from './AgentInstall';
import { useTouchSize } from './useTouchSize';
import { serverQueries } from '../../api/resources/servers';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

export function ServerDetail({ server, onEdit, onDeleted }: { server: ServerView; onEdit: () => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const size = useTouchSize();
  const sshError = useSshErrorText();
  const [confirm, setConfirm] = useState<'forget' | 'delete' | null>(null);

  const test = useMutation({ mutationFn: () => servers.test(server.id), onSettled: () => void client.invalidateQueries({ queryKey: serverQueries.all }) });
  const forget = useMutation({
    mutationFn: () => servers.forgetHostKey(server.id),
    onSuccess: (s) => {
      client.setQueryData(['servers', 'one', s.id], s);
      setConfirm(null);
    },
  });
  const remove = useStartWork({
    work: (key) => servers.remove(server.id, key),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('servers.deleted') });
      setConfirm(null);
      onDeleted();
      // The deleted server's own query is left alone: refetched (or recreated while the drawer
      // closes) it would only answer 404. Its cache entry expires unused.
      void client.invalidateQueries({ queryKey: ['servers'], predicate: (q) => q.queryKey[1] !== 'one' });
    },
  });

  return (
    <Stack gap="md">
      <Group gap="xs">
        <AgentStatusBadge status={server.status} />
        <Badge variant="outline" color={server.has_credentials ? 'gray' : 'orange'} radius="sm" styles={{ label: { textTransform: 'none' } }}>
          {server.has_credentials ? t('servers.hasCredentials') : t('servers.noCredentials')}
        </Badge>
      </Group>

      <SimpleGrid cols={2} spacing="sm" verticalSpacing="sm">
        <Field label={t('servers.address')}>
          <CopyText value={`${server.host}:${server.port}`} breakAll />
        </Field>
        <Field label={t('servers.username')}>
          <Text size="sm">{server.username}</Text>
        </Field>
        <Field label={t('servers.authType')}>
          <Text size="sm">{server.auth_type === 'password' ? t('servers.authPassword') : t('servers.authKey')}</Text>
        </Field>
        <Field label={t('servers.targetPath')}>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {server.target_path || t('common.notAvailable')}
          </Text>
        </Field>
        <Field label={t('servers.lastHeartbeat')}>
          <RelativeTime value={server.last_heartbeat_at} />
        </Field>
        <Field label={t('servers.sortCreated')}>
          <RelativeTime value={server.created_at} />
        </Field>
      </SimpleGrid>
      <Field label={t('reach.ssh')}>
        <Stack gap={2}>
          <SshSignal server={server} />
          {server.ssh_status !== 'failing' && server.ssh_last_error && server.ssh_last_error_at && (
            <Text size="xs" c="dimmed">
              {t('reach.lastError')}: {sshError(server.ssh_last_error)} · <RelativeTime value={server.ssh_last_error_at} />
            </Text>
          )}
        </Stack>
      </Field>
      {server.tags.length > 0 && (
        <Field label={t('servers.tags')}>
          <Group gap={4}>
            {server.tags.map((tag) => (
              <Badge key={tag} variant="light" color="gray" radius="sm" styles={{ label: { textTransform: 'none' } }}>
                {tag}
              </Badge>
            ))}
          </Group>
        </Field>
      )}

      <Group gap="xs" aria-label={t('servers.actions')} role="group">
        <Button size={size} leftSection={<IconPlugConnected size={16} />} onClick={() => test.mutate()} loading={test.isPending}>
          {t('servers.test')}
        </Button>
        <Button size={size} variant="default" leftSection={<IconPencil size={16} />} onClick={onEdit}>
          {t('common.edit')}
        </Button>
        <Button size={size} variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirm('delete')}>
          {t('servers.delete')}
        </Button>
      </Group>
      {test.data && (
        <Alert color={test.data.ok ? 'teal' : 'red'} title={test.data.ok ? t('servers.testOk', { ms: test.data.latency_ms ?? 0 }) : t('servers.testFailed')} role="status">
          {!test.data.ok && test.data.error}
        </Alert>
      )}
      <ErrorDisplay error={test.error} title={t('servers.testFailed')} />

      <Divider />
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('servers.hostKey')}
        </Title>
        {server.host_key_fingerprint ? (
          <CopyText value={server.host_key_fingerprint} label={t('servers.hostKey')} breakAll />
        ) : (
          <Text size="sm" c="dimmed">
            {t('servers.hostKeyNone')}
          </Text>
        )}
        <Button
          size={size}
          variant="default"
          leftSection={<IconKeyOff size={16} />}
          disabled={!server.host_key_fingerprint}
          onClick={() => setConfirm('forget')}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('servers.forgetHostKey')}
        </Button>
      </Stack>

      <Divider />
      <AgentInstall serverId={server.id} />

      <ConfirmDialog
        opened={confirm === 'forget'}
        title={t('servers.forgetHostKey')}
        message={t('servers.forgetConfirm', { name: server.name })}
        word={server.name}
        confirmLabel={t('common.confirm')}
        loading={forget.isPending}
        onConfirm={() => forget.mutate()}
        onClose={() => setConfirm(null)}
      />
      <ConfirmDialog
        opened={confirm === 'delete'}
        title={t('servers.delete')}
        message={t('servers.deleteConfirm', { name: server.name })}
        word={server.name}
        confirmLabel={t('common.delete')}
        loading={remove.pending}
        onConfirm={() => remove.start()}
        onClose={() => setConfirm(null)}
      />
      {/* Refusals of the confirmed actions, shown where the operator is looking afterwards. */}
      <ErrorDisplay error={forget.error ?? remove.error} />
    </Stack>
  );
}
