/**
 * One status display for the whole console: an icon, a word and a colour, never colour alone.
 * Servers (online/offline/unknown), batches and per-server results, retry jobs and alerts. The
 * colour comes from the one status-colour map (./status-colors).
 */
import { Badge, Loader } from '@mantine/core';
import {
  IconAlertTriangle, IconBan, IconCircleCheck, IconCircleDashed, IconCircleX, IconClockPause, IconPlayerSkipForward, IconQuestionMark,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isStatus, type Status, statusColor } from './status-colors';

export { isStatus, type Status } from './status-colors';

const ICON: Record<Status, ReactNode> = {
  online: <IconCircleCheck size={14} aria-hidden />,
  success: <IconCircleCheck size={14} aria-hidden />,
  completed: <IconCircleCheck size={14} aria-hidden />,
  succeeded: <IconCircleCheck size={14} aria-hidden />,
  recovered: <IconCircleCheck size={14} aria-hidden />,
  offline: <IconCircleX size={14} aria-hidden />,
  failed: <IconCircleX size={14} aria-hidden />,
  active: <IconAlertTriangle size={14} aria-hidden />,
  partial: <IconAlertTriangle size={14} aria-hidden />,
  cancelled: <IconBan size={14} aria-hidden />,
  skipped: <IconPlayerSkipForward size={14} aria-hidden />,
  pending: <IconClockPause size={14} aria-hidden />,
  unknown: <IconQuestionMark size={14} aria-hidden />,
  running: <Loader size={10} color="blue" aria-hidden />,
};

export function StatusBadge({ status, size = 'sm', label }: { status: string; size?: 'xs' | 'sm' | 'md'; label?: string }) {
  const { t } = useTranslation();
  const icon = isStatus(status) ? ICON[status] : <IconCircleDashed size={14} aria-hidden />;
  const word = label ?? (isStatus(status) ? t(`status.${status}`) : status);
  return (
    // The word is never cut off: a badge keeps its full width (it wraps to its own line instead).
    <Badge color={statusColor(status)} variant="light" size={size} leftSection={icon} radius="sm" styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { textTransform: 'none', overflow: 'visible' } }}>
      {word}
    </Badge>
  );
}

/** A server's agent status: `unknown` means it never sent a heartbeat, which is "no agent". */
export function AgentStatusBadge({ status, size = 'sm' }: { status: string; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation();
  return <StatusBadge status={status} size={size} label={status === 'unknown' ? t('reach.noAgent') : undefined} />;
}
