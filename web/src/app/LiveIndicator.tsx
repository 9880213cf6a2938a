/** The live socket's state as a dot with a word for screen readers and a tooltip: never colour alone. */
import { Box, Tooltip, VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { liveSocket, type SocketStatus } from '../api/socket';

const COLOR: Record<SocketStatus, string> = { connected: 'var(--mantine-color-teal-6)', reconnecting: 'var(--mantine-color-yellow-6)', disconnected: 'var(--mantine-color-red-6)' };

export function useSocketStatus(): SocketStatus {
  const [status, setStatus] = useState<SocketStatus>(liveSocket.getStatus());
  useEffect(() => liveSocket.onStatus(setStatus), []);
  return status;
}

export function LiveIndicator() {
  const { t } = useTranslation();
  const status = useSocketStatus();
  const label = t(`header.connection.${status}`);
  return (
    <Tooltip label={label} withArrow>
      <Box role="status" aria-live="polite" tabIndex={0} px={8} py={8} style={{ display: 'flex', alignItems: 'center' }}>
        <Box w={10} h={10} style={{ borderRadius: '50%', background: COLOR[status], boxShadow: `0 0 0 2px var(--mantine-color-body)` }} aria-hidden />
        <VisuallyHidden>{label}</VisuallyHidden>
      </Box>
    </Tooltip>
  );
}
