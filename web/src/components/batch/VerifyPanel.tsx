/**
 * Verify a push: compares each staged file's checksum with the copy on each server and lists what
 * is missing or different (the lists are capped by the service).
 */
import { Accordion, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { VerifyResponse } from '@server/modules/remote/remote.schemas';
import { IconChecklist } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { push } from '../../api/endpoints';
import { useStartWork } from '../../api/start-work';
import { ErrorDisplay } from '../ErrorDisplay';
import { toneText } from '../status-colors';

/** The service checks at most this many servers per request. */
const MAX_SERVERS = 1000;

export function VerifyPanel({ source, targetPath, serverIds }: { source: string; targetPath: string | null; serverIds: number[] }) {
  const { t } = useTranslation();
  const verify = useStartWork({
    work: (key) => push.verify({ source_path: source, server_ids: serverIds.slice(0, MAX_SERVERS), target_path: targetPath }, key),
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('push.verify')}
          </Title>
          <Button leftSection={<IconChecklist size={16} aria-hidden />} variant="light" loading={verify.pending} disabled={serverIds.length === 0} onClick={() => verify.start()}>
            {verify.pending ? t('push.verifying') : t('push.verify')}
          </Button>
        </Group>
        <ErrorDisplay error={verify.error} />
        {verify.data && <VerifyResult data={verify.data} />}
      </Stack>
    </Paper>
  );
}

function VerifyResult({ data }: { data: VerifyResponse }) {
  const { t } = useTranslation();
  const results = Object.values(data.results);
  const withFiles = results.filter((r) => (r.missing_files?.length ?? 0) + (r.mismatched_files?.length ?? 0) > 0);
  return (
    <Stack gap="sm">
      <Text size="sm" fw={500}>
        {t('push.verifyTitle', { count: data.total_local_files })}
      </Text>
      <Table.ScrollContainer minWidth={320}>
        <Table aria-label={t('push.verifyTitle', { count: data.total_local_files })}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('history.server')}</Table.Th>
              <Table.Th ta="right">{t('push.matched')}</Table.Th>
              <Table.Th ta="right">{t('push.missing')}</Table.Th>
              <Table.Th ta="right">{t('push.mismatched')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {results.map((r) => (
              <Table.Tr key={r.server_id}>
                <Table.Td style={{ wordBreak: 'break-all' }}>{r.server_name}</Table.Td>
                {r.error ? (
                  <Table.Td colSpan={3} c={toneText('bad')}>
                    {t('push.verifyFailed')}: {r.error}
                  </Table.Td>
                ) : (
                  <>
                    <Table.Td ta="right">{r.matched ?? 0}</Table.Td>
                    <Table.Td ta="right" c={r.missing ? 'red.8' : undefined} fw={r.missing ? 600 : undefined}>
                      {r.missing ?? 0}
                    </Table.Td>
                    <Table.Td ta="right" c={r.mismatched ? 'red.8' : undefined} fw={r.mismatched ? 600 : undefined}>
                      {r.mismatched ?? 0}
                    </Table.Td>
                  </>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {withFiles.length > 0 && (
        <Accordion variant="contained">
          {withFiles.map((r) => (
            <Accordion.Item key={r.server_id} value={String(r.server_id)}>
              <Accordion.Control>{r.server_name}</Accordion.Control>
              <Accordion.Panel>
                {(r.missing_files?.length ?? 0) > 0 && (
                  <>
                    <Text size="sm" fw={500}>
                      {t('push.missing')}
                    </Text>
                    <Code block>{r.missing_files?.join('\n')}</Code>
                  </>
                )}
                {(r.mismatched_files?.length ?? 0) > 0 && (
                  <>
                    <Text size="sm" fw={500} mt="xs">
                      {t('push.mismatched')}
                    </Text>
                    <Code block>{r.mismatched_files?.join('\n')}</Code>
                  </>
                )}
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
