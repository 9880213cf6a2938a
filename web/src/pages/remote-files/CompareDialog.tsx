/**
 * A remote file against the matching file of a staging directory (file-diff reads the server at
 * target + `/` + relative path): under the server's target directory the relative path is the
 * file's path below it, elsewhere its name in its own folder. Both can be corrected before comparing.
 */
import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import type { BrowseEntry } from '@server/modules/remote/remote.schemas';
import { IconGitCompare } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { remoteFileQueries, remoteFilesApi } from '../../api/resources/remote-files';
import { DiffResult } from '../../components/batch/DiffPanel';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { diffTarget, joinPath } from './remote-paths';

interface Props {
  serverId: number;
  serverTarget: string | null;
  dir: string;
  entry: BrowseEntry | null;
  onClose: () => void;
}

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

export function CompareDialog({ serverId, serverTarget, dir, entry, onClose }: Props) {
  const { t } = useTranslation();
  const opened = entry !== null;
  const dirs = useQuery({ ...remoteFileQueries.stagingDirs(), enabled: opened });
  const [source, setSource] = useState('');
  const [relative, setRelative] = useState('');
  const [target, setTarget] = useState('');
  const [shownFor, setShownFor] = useState<string | null>(null);
  const diff = useMutation({ mutationFn: remoteFilesApi.diff });
  const key = entry ? joinPath(dir, entry.name) : null;
  if (key !== shownFor) {
    setShownFor(key);
    if (key) {
      const d = diffTarget(key, serverTarget);
      setRelative(d.relative_path);
      setTarget(d.target_path);
      diff.reset();
    }
  }
  const items = dirs.data?.items ?? [];
  const chosen = source || items[0]?.path || '';

  return (
    <Modal opened={opened} onClose={onClose} title={entry ? t('remoteFiles.compareTitle', { name: entry.name }) : ''} size="xl" centered>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('remoteFiles.compareHelp')}
        </Text>
        {dirs.isSuccess && items.length === 0 ? (
          <Group>
            <Text size="sm">{t('remoteFiles.noStaging')}</Text>
            <Button component={Link} to="/staging" variant="light">
              {t('remoteFiles.openStaging')}
            </Button>
          </Group>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (chosen && relative.trim()) diff.mutate({ source_path: chosen, relative_path: relative.trim().replace(/^\/+/, ''), server_id: serverId, target_path: target || null });
            }}
          >
            <Stack gap="sm">
              <NativeSelect
                label={t('remoteFiles.stagingDir')}
                data={items.map((d) => ({ value: d.path, label: d.zip ? `${d.zip.filename} — ${d.name}` : d.name }))}
                value={chosen}
                onChange={(e) => setSource(e.currentTarget.value)}
              />
              <Group grow wrap="wrap" align="flex-start">
                <TextInput label={t('remoteFiles.relativePath')} value={relative} onChange={(e) => setRelative(e.currentTarget.value)} styles={mono} miw={200} />
                <TextInput label={t('remoteFiles.targetDir')} value={target} onChange={(e) => setTarget(e.currentTarget.value)} styles={mono} miw={200} />
              </Group>
              <Group justify="flex-end">
                <Button type="submit" leftSection={<IconGitCompare size={16} aria-hidden />} loading={diff.isPending} disabled={!chosen || !relative.trim()}>
                  {t('remoteFiles.runCompare')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        <ErrorDisplay error={dirs.error ?? diff.error} />
        {diff.data && <DiffResult data={diff.data} />}
      </Stack>
    </Modal>
  );
}
