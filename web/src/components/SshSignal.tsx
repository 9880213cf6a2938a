/**
 * A server's second signal beside its agent: what the service's own SSH contacts (tests,
 * pushes, commands, the optional probe) found. "SSH reachable 2 min ago", "SSH failing since
 * 5 min ago · connection refused", or "SSH never contacted". Icon and words, never colour alone.
 */
import { Group, Text } from '@mantine/core';
import type { ServerView } from '@server/modules/servers/servers.schemas';
import { IconPlugConnected, IconPlugConnectedX, IconPlugX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from './Time';

type Reach = Pick<ServerView, 'ssh_status' | 'ssh_last_ok_at' | 'ssh_failing_since' | 'ssh_last_error'>;

/** The icon keeps its size and sits on the first line when the words wrap. */
const ICON = { flexShrink: 0, marginTop: 2 };

const ERROR_CLASSES = new Set(['refused', 'timeout', 'auth_failed', 'host_key_mismatch', 'dns', 'closed', 'other']);

/** The error class in words ("connection refused"); an unexpected value is shown as it is. */
export function useSshErrorText(): (kind: string | null) => string | null {
  const { t } = useTranslation();
  return (kind) => (kind === null ? null : ERROR_CLASSES.has(kind) ? t(`reach.errors.${kind}`) : kind);
}

export function SshSignal({ server, withError = true }: { server: Reach; withError?: boolean }) {
  const { t } = useTranslation();
  const errorText = useSshErrorText();
  if (server.ssh_status === 'reachable') {
    return (
      <Group gap={4} wrap="nowrap" align="flex-start" c="teal">
        <IconPlugConnected size={14} aria-hidden style={ICON} />
        <Text span size="xs" c="dimmed">
          {t('reach.reachableAgo')} <RelativeTime value={server.ssh_last_ok_at} size="xs" />
        </Text>
      </Group>
    );
  }
  if (server.ssh_status === 'failing') {
    return (
      <Group gap={4} wrap="nowrap" align="flex-start" c="red">
        <IconPlugConnectedX size={14} aria-hidden style={ICON} />
        <Text span size="xs" c="red">
          {t('reach.failingSince')} <RelativeTime value={server.ssh_failing_since} size="xs" />
          {withError && server.ssh_last_error ? ` · ${errorText(server.ssh_last_error)}` : ''}
        </Text>
      </Group>
    );
  }
  return (
    <Group gap={4} wrap="nowrap" align="flex-start" c="dimmed">
      <IconPlugX size={14} aria-hidden style={ICON} />
      <Text span size="xs" c="dimmed">
        {t('reach.neverContacted')}
      </Text>
    </Group>
  );
}
