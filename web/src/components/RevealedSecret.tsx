/**
 * A revealed secret: shown with a copy button and a countdown, then hidden again (`onHide`)
 * after 30 seconds, or at once with "Hide now". The secret lives only in the caller's state,
 * which `onHide` clears: nothing keeps it after that.
 */
import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconEyeOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export const REVEAL_MS = 30_000;

export function RevealedSecret({ label, value, onHide, multiline = false }: { label: string; value: string; onHide: () => void; multiline?: boolean }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(Math.round(REVEAL_MS / 1000));
  useEffect(() => {
    const started = Date.now();
    const tick = setInterval(() => setLeft(Math.max(0, Math.ceil((REVEAL_MS - (Date.now() - started)) / 1000))), 1000);
    const hide = setTimeout(onHide, REVEAL_MS);
    return () => {
      clearInterval(tick);
      clearTimeout(hide);
    };
  }, [onHide]);
  return (
    <Stack gap={6} role="group" aria-label={label}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Code block={multiline} style={{ wordBreak: 'break-all', whiteSpace: multiline ? 'pre-wrap' : undefined }} data-testid="revealed-secret">
        {value}
      </Code>
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed" aria-live="polite">
          {t('common.hiddenIn', { count: left })}
        </Text>
        <Group gap="xs">
          <CopyButton value={value} timeout={1500}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" color={copied ? 'teal' : undefined} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} onClick={copy}>
                {copied ? t('common.copied') : t('common.copy')}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" leftSection={<IconEyeOff size={14} />} onClick={onHide}>
            {t('common.hideNow')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
