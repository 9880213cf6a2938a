/**
 * Step 3: how, and what it would do. The mode and target path apply to the whole push; a preview
 * is a dry run per server (nothing is transferred) showing counts and the file list. A full push
 * deletes what the source lacks, so it asks for the word "full" to be typed.
 */
import { Button, Code, Group, Paper, ScrollArea, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import type { SyncMode } from '@server/modules/push/push.schemas';
import { IconEye } from '@tabler/icons-react';
import { useMutation, useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { push } from '../../api/endpoints';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { formatBytes, formatNumber } from '../../i18n/format';
import type { PreviewView } from '@server/modules/push/push.schemas';
import { serverQueries } from '../../api/resources/servers';

/** Previews are dry runs over SSH: only the first servers are listed here, a few at a time. */
const SHOWN = 20;
const PARALLEL = 4;

export interface PushOptions {
  mode: SyncMode;
  targetPath: string;
}

export function ReviewStep({ source, ids, options, onOptions }: { source: string; ids: number[]; options: PushOptions; onOptions: (o: PushOptions) => void }) {
  const { t, i18n } = useTranslation();
  const shown = ids.slice(0, SHOWN);
  const names = useQueries({ queries: shown.map((id) => ({ ...serverQueries.one(id), staleTime: 60_000 })) });
  const [previews, setPreviews] = useState<Record<number, PreviewView | Error>>({});
  const [open, setOpen] = useState<number | null>(null);

  const run = useMutation({
    mutationFn: async (targets: number[]) => {
      const queue = [...targets];
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          try {
            const res = await push.preview({ server_id: id, source_path: source, target_path: options.targetPath || null, sync_mode: options.mode, verbose: true });
            setPreviews((p) => ({ ...p, [id]: res }));
          } catch (err) {
            setPreviews((p) => ({ ...p, [id]: err as Error }));
          }
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    },
  });
  const setOptions = (o: Partial<PushOptions>) => {
    setPreviews({});
    onOptions({ ...options, ...o });
  };
  const num = (n: number | undefined) => (n === undefined ? '—' : formatNumber(n, i18n.language));

  return (
    <Stack gap="md">
      <Group align="flex-end" wrap="wrap" gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="push-mode-label">
            {t('push.mode')}
          </Text>
          <SegmentedControl
            aria-labelledby="push-mode-label"
            value={options.mode}
            onChange={(v) => setOptions({ mode: v as SyncMode })}
            data={[
              { value: 'incremental', label: t('push.modeIncremental') },
              { value: 'checksum', label: t('push.modeChecksum') },
              { value: 'full', label: t('push.modeFull') },
            ]}
            orientation={typeof window !== 'undefined' && window.innerWidth < 600 ? 'vertical' : 'horizontal'}
          />
        </Stack>
        <TextInput
          label={t('push.targetPath')}
          description={t('push.targetPathHelp')}
          placeholder="/srv/app"
          value={options.targetPath}
          onChange={(e) => setOptions({ targetPath: e.currentTarget.value })}
          style={{ flex: '1 1 240px' }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
      </Group>
      <Paper withBorder p="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm">{t('push.previewHelp')}</Text>
          <Button leftSection={<IconEye size={16} aria-hidden />} variant="light" loading={run.isPending} onClick={() => run.mutate(shown)}>
            {t('push.previewAll', { count: shown.length })}
          </Button>
        </Group>
      </Paper>
      <Table.ScrollContainer minWidth={320}>
        <Table aria-label={t('push.stepPreview')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('push.diffServer')}</Table.Th>
              <Table.Th ta="right">{t('push.toTransfer')}</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">{t('push.bytesToTransfer')}</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">{t('push.created')}</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">{t('push.deletedCount')}</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">{t('push.filesTotal')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((id, i) => {
              const p = previews[id];
              const ok = p && !(p instanceof Error) ? p : undefined;
              const name = names[i].data?.name ?? ok?.server_name ?? `#${id}`;
              return [
                <Table.Tr key={id}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{name}</Table.Td>
                  <Table.Td ta="right">{num(ok?.files_to_transfer)}</Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">{ok ? formatBytes(ok.bytes_to_transfer, i18n.language) : '—'}</Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">{num(ok?.files_created)}</Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">{num(ok?.files_deleted)}</Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">{num(ok?.files_total)}</Table.Td>
                  <Table.Td ta="right">
                    {ok ? (
                      <Button size="xs" variant="subtle" onClick={() => setOpen(open === id ? null : id)} aria-expanded={open === id}>
                        {t('push.fileList')}
                      </Button>
                    ) : (
                      <Button size="xs" variant="subtle" aria-label={`${t('push.previewServer')} ${name}`} onClick={() => run.mutate([id])} disabled={run.isPending}>
                        {t('push.previewServer')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>,
                p instanceof Error && (
                  <Table.Tr key={`${id}-error`}>
                    <Table.Td colSpan={7}>
                      <ErrorDisplay error={p} />
                    </Table.Td>
                  </Table.Tr>
                ),
                ok && open === id && (
                  <Table.Tr key={`${id}-files`}>
                    <Table.Td colSpan={7}>
                      <ScrollArea.Autosize mah={240}>
                        <Code block aria-label={`${t('push.fileList')} ${name}`}>
                          {(ok.file_list ?? []).join('\n') || t('common.none')}
                        </Code>
                      </ScrollArea.Autosize>
                      {ok.file_list_truncated && (
                        <Text size="xs" c="dimmed">
                          {t('push.fileListTruncated')}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ),
              ];
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {ids.length > SHOWN && (
        <Text size="sm" c="dimmed">
          {t('push.filesTruncated', { count: ids.length - SHOWN })}
        </Text>
      )}
    </Stack>
  );
}
