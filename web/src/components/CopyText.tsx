/** A monospace value (host, path, fingerprint, command) with a copy button. */
import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function CopyText({ value, label, breakAll = false }: { value: string; label?: string; breakAll?: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      <Text ff="monospace" size="sm" style={{ wordBreak: breakAll ? 'break-all' : 'normal', minWidth: 0 }}>
        {value}
      </Text>
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('common.copied') : t('common.copy')} withArrow>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`${t('common.copy')} ${label ?? value}`} size="sm">
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
