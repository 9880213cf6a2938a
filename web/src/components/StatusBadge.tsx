/**
 * One status display for the whole console: an icon, a word and a colour, never colour alone.
 * Servers (online/offline/unknown), batches and per-server results, retry jobs and alerts.
 */
import { Badge, Loader } from '@mantine/core';
import {
  IconAlertTriangle, IconBan, IconCircleCheck, IconCircleDashed, IconCircleX, IconClockPause, IconPlayerSkipForward, IconQuestionMark,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type Status =
  | 'online' | 'offline' | 'unknown' | 'running' | 'success' | 'completed' | 'partial' | 'failed' | 'cancelled' | 'skipped' | 'pending'
  | 'succeeded' | 'active' | 'recovered';

const LOOK: Record<Status, { color: string; icon: ReactNode }> = {
  online: { color: 'teal', icon: <IconCircleCheck size={14} aria-hidden /> },
  success: { color: 'teal', icon: <IconCircleCheck size={14} aria-hidden /> },
  completed: { color: 'teal', icon: <IconCircleCheck size={14} aria-hidden /> },
  succeeded: { color: 'teal', icon: <IconCircleCheck size={14} aria-hidden /> },
  recovered: { color: 'teal', icon: <IconCircleCheck size={14} aria-hidden /> },
  offline: { color: 'red', icon: <IconCircleX size={14} aria-hidden /> },
  failed: { color: 'red', icon: <IconCircleX size={14} aria-hidden /> },
  active: { color: 'red', icon: <IconAlertTriangle size={14} aria-hidden /> },
  partial: { color: 'orange', icon: <IconAlertTriangle size={14} aria-hidden /> },
  cancelled: { color: 'gray', icon: <IconBan size={14} aria-hidden /> },
  skipped: { color: 'gray', icon: <IconPlayerSkipForward size={14} aria-hidden /> },
  pending: { color: 'gray', icon: <IconClockPause size={14} aria-hidden /> },
  unknown: { color: 'gray', icon: <IconQuestionMark size={14} aria-hidden /> },
  running: { color: 'blue', icon: <Loader size={10} color="blue" aria-hidden /> },
};

export function isStatus(s: string): s is Status {
  return s in LOOK;
}

export function StatusBadge({ status, size = 'sm', label }: { status: string; size?: 'xs' | 'sm' | 'md'; label?: string }) {
  const { t } = useTranslation();
  const look = isStatus(status) ? LOOK[status] : { color: 'gray', icon: <IconCircleDashed size={14} aria-hidden /> };
  const word = label ?? (isStatus(status) ? t(`status.${status}`) : status);
  return (
    <Badge color={look.color} variant="light" size={size} leftSection={look.icon} radius="sm" styles={{ label: { textTransform: 'none' } }}>
      {word}
    </Badge>
  );
}

/** A server's agent status: `unknown` means it never sent a heartbeat, which is "no agent". */
export function AgentStatusBadge({ status, size = 'sm' }: { status: string; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation();
  return <StatusBadge status={status} size={size} label={status === 'unknown' ? t('reach.noAgent') : undefined} />;
}
