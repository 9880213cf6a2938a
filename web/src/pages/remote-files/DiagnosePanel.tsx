/**
 * Diagnose one server: the five checks in the order they run (reachability, login, disk, the
 * directory's permissions, rsync), each with its result and, when it failed, what to do. Opened from
 * the server's detail (`?diagnose=1`), it runs at once; "Run again" repeats it for another directory.
 */
import { Alert, Button, Drawer, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconStethoscope } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { remoteFilesApi } from '../../api/resources/remote-files';
import type { Reply } from '../../api/typed';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { StatusBadge } from '../../components/StatusBadge';
import { toneText } from '../../components/status-colors';

type DiagnoseReply = Reply<'POST /api/sync/diagnose'>;
type DiagnoseCheck = NonNullable<DiagnoseReply['checks']>[number];

const BADGE_STATUS: Record<DiagnoseCheck['status'], string> = { ok: 'success', failed: 'failed', warning: 'partial', skipped: 'skipped' };

interface Props {
  opened: boolean;
  serverId: number;
  serverName: string;
  defaultPath: string;
  onClose: () => void;
}

export function DiagnosePanel({ opened, serverId, serverName, defaultPath, onClose }: Props) {
  const { t } = useTranslation();
  const [path, setPath] = useState(defaultPath);
  const run = useMutation({ mutationFn: (p: string) => remoteFilesApi.diagnose({ server_id: serverId, target_path: p.trim() || null }) });
  const { mutate, reset } = run;
  // Opening the panel is the request to diagnose: it runs once per opening.
  const ranFor = useRef(false);
  useEffect(() => {
    if (opened && !ranFor.current) {
      ranFor.current = true;
      mutate(defaultPath);
    }
    if (!opened && ranFor.current) {
      ranFor.current = false;
      reset();
    }
  }, [opened, defaultPath, mutate, reset]);

  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="lg" title={t('remoteFiles.diagnoseTitle', { name: serverName })}>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('remoteFiles.diagnoseHelp')}
        </Text>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            run.mutate(path);
          }}
        >
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label={t('remoteFiles.diagnosePath')}
              value={path}
              onChange={(e) => setPath(e.currentTarget.value)}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              style={{ flex: '1 1 220px' }}
            />
            <Button type="submit" leftSection={<IconStethoscope size={16} aria-hidden />} loading={run.isPending}>
              {run.data ? t('remoteFiles.runAgain') : t('remoteFiles.runChecks')}
            </Button>
          </Group>
        </form>
        {run.isPending && (
          <Text size="sm" aria-live="polite">
            {t('remoteFiles.checking')}
          </Text>
        )}
        <ErrorDisplay error={run.error} />
        {run.data && !run.isPending && <DiagnoseResult data={run.data} />}
      </Stack>
    </Drawer>
  );
}

export function DiagnoseResult({ data }: { data: DiagnoseReply }) {
  const { t } = useTranslation();
  const checks = data.checks ?? [];
  const failed = checks.filter((c) => c.status === 'failed').length;
  const warned = checks.filter((c) => c.status === 'warning').length;
  return (
    <Stack gap="sm">
      <Alert color={failed > 0 ? 'red' : warned > 0 ? 'orange' : 'teal'} role="status">
        {failed > 0
          ? t('remoteFiles.failedCount', { count: failed })
          : warned > 0
            ? t('remoteFiles.warningCount', { count: warned })
            : t('remoteFiles.allPassed')}
      </Alert>
      <Stack gap="xs" component="ol" aria-label={t('remoteFiles.checksLabel')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {checks.map((c) => (
          <Paper key={c.check} component="li" withBorder p="sm" aria-label={`${t(`remoteFiles.checks.${c.check}`)}: ${t(`remoteFiles.checkStatus.${c.status}`)}`}>
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Text fw={600} size="sm">
                  {t(`remoteFiles.checks.${c.check}`)}
                </Text>
                <StatusBadge status={BADGE_STATUS[c.status]} label={t(`remoteFiles.checkStatus.${c.status}`)} />
              </Group>
              {c.detail && (
                <Text size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>
                  {c.detail}
                </Text>
              )}
              {c.advice && (
                <Text size="sm" c={c.status === 'failed' ? toneText('bad') : undefined}>
                  <Text span fw={600} size="sm">
                    {t('remoteFiles.whatToDo')}:{' '}
                  </Text>
                  {t(`remoteFiles.advice.${c.advice}`)}
                </Text>
              )}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
