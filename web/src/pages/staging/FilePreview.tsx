/**
 * A staging file's first bytes (the service reads at most 4096, and refuses files over 1 MiB):
 * text as text, anything else said to be binary rather than shown as noise.
 */
import { Alert, Code, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { IconFileUnknown } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { stagingQueries } from '../../api/resources/staging';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { formatBytes } from '../../i18n/format';
import { previewContent, previewShown } from './staging-view';

export function FilePreview({ path, onClose }: { path: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const preview = useQuery({ ...stagingQueries.preview(path ?? ''), enabled: path !== null });
  const name = path?.split('/').pop() ?? '';
  const data = path !== null ? preview.data : undefined;
  const content = data ? previewContent(data) : null;
  return (
    <Modal opened={path !== null} onClose={onClose} title={t('staging.previewTitle', { name })} size="xl" centered>
      <Stack gap="sm">
        {preview.isLoading && <Text size="sm" c="dimmed" role="status">{t('common.loading')}</Text>}
        <ErrorDisplay error={path !== null ? preview.error : null} />
        {data && content?.kind === 'binary' && (
          <Alert color="gray" icon={<IconFileUnknown size={18} aria-hidden />}>
            {t('staging.binary', { size: formatBytes(data.size, i18n.language) })}
          </Alert>
        )}
        {data && content?.kind === 'text' && (
          <>
            {data.truncated && (
              <Text size="xs" c="dimmed">
                {t('staging.previewTruncated', { shown: formatBytes(previewShown(data), i18n.language), size: formatBytes(data.size, i18n.language) })}
              </Text>
            )}
            <ScrollArea.Autosize mah="60vh" type="auto">
              <Code block tabIndex={0} aria-label={t('staging.previewTitle', { name })} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {content.text}
              </Code>
            </ScrollArea.Autosize>
          </>
        )}
      </Stack>
    </Modal>
  );
}
