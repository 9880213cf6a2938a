/**
 * Compare one file between the staging directory and a server, side by side (server on the left,
 * staging on the right, as the push would change it).
 */
import { Alert, Box, Button, Group, NativeSelect, Paper, ScrollArea, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import type { FileDiffResponse } from '@server/modules/remote/remote.schemas';
import { IconGitCompare } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { push } from '../../api/endpoints';
import { ErrorDisplay } from '../ErrorDisplay';
import { type Cell, sideBySide } from './side-by-side';

export function DiffPanel({ source, targetPath, servers }: { source: string; targetPath: string | null; servers: Array<{ id: number; name: string }> }) {
  const { t } = useTranslation();
  const [serverId, setServerId] = useState<string | null>(servers[0] ? String(servers[0].id) : null);
  const [file, setFile] = useState('');
  const diff = useMutation({
    mutationFn: () => push.diff({ source_path: source, relative_path: file.trim().replace(/^\/+/, ''), server_id: Number(serverId), target_path: targetPath }),
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('push.diffTitle')}
        </Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            diff.mutate();
          }}
        >
          <Group align="flex-end" wrap="wrap" gap="sm">
            {/* A native select: the phone's own picker, and no popup to scroll to. */}
            <NativeSelect
              label={t('push.diffServer')}
              data={servers.map((s) => ({ value: String(s.id), label: s.name }))}
              value={serverId ?? ''}
              onChange={(e) => setServerId(e.currentTarget.value)}
              style={{ flex: '1 1 200px' }}
            />
            <TextInput
              label={t('push.diffFile')}
              placeholder="config/app.conf"
              value={file}
              onChange={(e) => setFile(e.currentTarget.value)}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              style={{ flex: '2 1 240px' }}
            />
            <Button type="submit" leftSection={<IconGitCompare size={16} aria-hidden />} loading={diff.isPending} disabled={!serverId || !file.trim()}>
              {t('push.compare')}
            </Button>
          </Group>
        </form>
        <ErrorDisplay error={diff.error} />
        {diff.data && <DiffResult data={diff.data} />}
      </Stack>
    </Paper>
  );
}

const CELL_BG: Record<Cell['kind'], string | undefined> = {
  del: 'light-dark(var(--mantine-color-red-1), rgba(250, 82, 82, 0.18))',
  add: 'light-dark(var(--mantine-color-teal-1), rgba(18, 184, 134, 0.18))',
  ctx: undefined,
  empty: 'light-dark(var(--mantine-color-gray-1), var(--mantine-color-dark-6))',
};
const MARK: Record<Cell['kind'], string> = { del: '−', add: '+', ctx: ' ', empty: ' ' };

function DiffCell({ cell }: { cell: Cell }) {
  return (
    <Table.Td bg={CELL_BG[cell.kind]} ff="monospace" fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', verticalAlign: 'top' }}>
      <span aria-hidden>{MARK[cell.kind]} </span>
      {cell.kind === 'del' || cell.kind === 'add' ? <VisuallyHidden>{cell.kind === 'del' ? '(−)' : '(+)'} </VisuallyHidden> : null}
      {cell.text}
    </Table.Td>
  );
}

export function DiffResult({ data }: { data: FileDiffResponse }) {
  const { t } = useTranslation();
  if (data.error) return <Alert color="orange">{data.error}</Alert>;
  if (data.remote_exists === false) return <Alert color="blue">{t('push.remoteMissing')}</Alert>;
  if (data.diff_lines.length === 0) return <Alert color="teal">{t('push.identical')}</Alert>;
  const rows = sideBySide(data.diff_lines);
  return (
    <Stack gap={4}>
      {data.truncated && (
        <Text size="xs" c="dimmed">
          {t('push.diffTruncated')}
        </Text>
      )}
      <ScrollArea.Autosize mah={480}>
        <Box miw={320}>
          <Table withColumnBorders aria-label={`${t('push.diffTitle')}: ${data.file_name}`} layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('push.remote')}</Table.Th>
                <Table.Th>{t('push.local')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) =>
                r.header ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are a fixed rendering of one answer
                  <Table.Tr key={i}>
                    <Table.Td colSpan={2} ff="monospace" fz="xs" c="dimmed">
                      {r.header}
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are a fixed rendering of one answer
                  <Table.Tr key={i}>
                    <DiffCell cell={r.left} />
                    <DiffCell cell={r.right} />
                  </Table.Tr>
                ),
              )}
            </Table.Tbody>
          </Table>
        </Box>
      </ScrollArea.Autosize>
    </Stack>
  );
}
