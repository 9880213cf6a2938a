/**
 * Every staging directory with the ZIP it came from (name, size, file count) and its age; each
 * can be browsed, validated as a push source, pushed ("Push this" opens the push flow with it
 * chosen) or deleted. Old directories go in bulk: tick them, or delete everything older than N days.
 */
import { Alert, Anchor, Button, Checkbox, CloseButton, Group, NumberInput, Paper, Stack, Table, Text } from '@mantine/core';
import type { StagingDir } from '@server/modules/staging/staging-dirs.schemas';
import type { ValidateSourceResponse } from '@server/modules/staging/staging.schemas';
import { IconCircleCheck, IconCloudUpload, IconFileZip, IconFolder, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { stagingApi, stagingQueries } from '../../api/resources/staging';
import { useStartWork } from '../../api/start-work';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { RelativeTime } from '../../components/Time';
import { formatBytes } from '../../i18n/format';
import { browseLink, dirTime, dirTitle, olderThan, pushLink } from './staging-view';

type Pending = { kind: 'one'; dir: StagingDir } | { kind: 'names'; names: string[] } | { kind: 'older'; days: number; count: number };

export function StagingDirs() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const dirs = useQuery(stagingQueries.dirs());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [days, setDays] = useState<number>(7);
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState<{ deleted: number; missing: number } | null>(null);
  const [validated, setValidated] = useState<{ name: string; result: ValidateSourceResponse } | null>(null);

  const items = dirs.data?.items ?? [];
  const old = olderThan(items, days);
  const validate = useMutation({
    mutationFn: (d: StagingDir) => stagingApi.validate(d.path),
    onMutate: () => setValidated(null),
    onSuccess: (result, d) => setValidated({ name: dirTitle(d), result }),
  });
  const remove = useStartWork({
    work: (key, p: Pending) =>
      p.kind === 'one'
        ? stagingApi.remove(p.dir.path, key).then(() => ({ deleted: [p.dir.path], missing: [] as string[] }))
        : stagingApi.bulkDelete(p.kind === 'names' ? { names: p.names } : { older_than_days: p.days }, key),
    onSuccess: (res) => {
      setPending(null);
      setSelected(new Set());
      setDone({ deleted: res.deleted.length, missing: res.missing.length });
      return qc.invalidateQueries({ queryKey: stagingQueries.all });
    },
  });

  const pendingCount = pending?.kind === 'one' ? 1 : pending?.kind === 'names' ? pending.names.length : (pending?.count ?? 0);
  const allSelected = items.length > 0 && items.every((d) => selected.has(d.name));
  const toggle = (name: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(name);
    else next.delete(name);
    setSelected(next);
  };

  return (
    <Page
      title={t('staging.title')}
      actions={
        <Button component={Link} to="/push" variant="light" leftSection={<IconUpload size={16} aria-hidden />}>
          {t('staging.upload')}
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        {t('staging.intro')}
      </Text>
      <ErrorDisplay error={dirs.error} onRetry={() => dirs.refetch()} />
      {done && (
        <Alert color="teal" icon={<IconCircleCheck size={18} aria-hidden />} withCloseButton closeButtonLabel={t('common.close')} onClose={() => setDone(null)} role="status">
          {t('staging.bulkDone', { count: done.deleted })} {done.missing > 0 && t('staging.bulkMissing', { count: done.missing })}
        </Alert>
      )}
      {validated && (
        <Alert color="teal" icon={<IconCircleCheck size={18} aria-hidden />} role="status">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={2}>
              <Text size="sm">
                {t('staging.valid', {
                  name: validated.name,
                  files: t('staging.fileCount', { count: validated.result.file_count }),
                  size: formatBytes(validated.result.size_bytes, i18n.language),
                })}
              </Text>
              {validated.result.file_count_truncated && <Text size="sm">{t('staging.validTruncated', { count: validated.result.file_count })}</Text>}
            </Stack>
            <CloseButton aria-label={t('common.close')} onClick={() => setValidated(null)} />
          </Group>
        </Alert>
      )}
      <ErrorDisplay error={validate.error} />
      {items.length > 0 && (
        <Paper withBorder p="sm">
          <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} disabled={selected.size === 0} onClick={() => setPending({ kind: 'names', names: [...selected] })}>
              {t('staging.deleteSelected', { count: selected.size })}
            </Button>
            <Group align="flex-end" gap="xs" wrap="wrap">
              <NumberInput label={t('staging.olderDays')} value={days} min={0} max={36500} allowDecimal={false} onChange={(v) => setDays(typeof v === 'number' ? v : 0)} w={140} />
              <Stack gap={2}>
                <Text size="xs" c="dimmed" aria-live="polite">
                  {t('staging.olderMatch', { count: old.length })}
                </Text>
                <Button color="red" variant="light" disabled={old.length === 0} onClick={() => setPending({ kind: 'older', days, count: old.length })}>
                  {t('staging.deleteOlder')}
                </Button>
              </Stack>
            </Group>
          </Group>
        </Paper>
      )}
      {dirs.data?.truncated && <Text size="sm" c="dimmed">{t('staging.truncated')}</Text>}
      {dirs.isSuccess && items.length === 0 && (
        <EmptyState>
          <Text>{t('staging.empty')}</Text>
          <Button component={Link} to="/push" leftSection={<IconUpload size={16} aria-hidden />}>
            {t('staging.upload')}
          </Button>
        </EmptyState>
      )}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={340}>
          <Table aria-label={t('staging.listLabel')} verticalSpacing="xs" stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={44}>
                  <Checkbox aria-label={t('staging.selectAll')} checked={allSelected} indeterminate={!allSelected && selected.size > 0} onChange={(e) => setSelected(e.currentTarget.checked ? new Set(items.map((d) => d.name)) : new Set())} />
                </Table.Th>
                <Table.Th>{t('staging.name')}</Table.Th>
                <Table.Th visibleFrom="sm" ta="right">{t('staging.zipSize')}</Table.Th>
                <Table.Th visibleFrom="sm" ta="right">{t('staging.files')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('staging.age')}</Table.Th>
                <Table.Th>{t('staging.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((d) => (
                <DirRow
                  key={d.path}
                  d={d}
                  selected={selected.has(d.name)}
                  onSelect={(on) => toggle(d.name, on)}
                  onValidate={() => validate.mutate(d)}
                  validating={validate.isPending && validate.variables?.path === d.path}
                  onDelete={() => setPending({ kind: 'one', dir: d })}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmDialog
        opened={pending !== null}
        title={pending?.kind === 'one' ? t('staging.deleteName', { name: dirTitle(pending.dir) }) : t('staging.deleteSelected', { count: pendingCount })}
        message={pending?.kind === 'one' ? t('staging.deleteDirConfirm', { name: dirTitle(pending.dir) }) : t('staging.bulkConfirm', { count: pendingCount })}
        word={pending?.kind === 'one' ? dirTitle(pending.dir) : String(pendingCount)}
        confirmLabel={pending?.kind === 'one' ? t('common.delete') : t('staging.deleteSelected', { count: pendingCount })}
        loading={remove.pending}
        onConfirm={() => pending && remove.start(pending)}
        onClose={() => setPending(null)}
      />
      <ErrorDisplay error={remove.error} />
    </Page>
  );
}

function DirRow({ d, selected, onSelect, onValidate, validating, onDelete }: {
  d: StagingDir;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onValidate: () => void;
  validating: boolean;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const title = dirTitle(d);
  const count = d.zip?.file_count;
  const files = count === undefined ? t('staging.entryCount', { count: d.entries }) : t('staging.fileCount', { count });
  return (
    <Table.Tr>
      <Table.Td>
        <Checkbox aria-label={t('staging.select', { name: title })} checked={selected} onChange={(e) => onSelect(e.currentTarget.checked)} />
      </Table.Td>
      <Table.Td style={{ minWidth: 160 }}>
        <Group gap={6} wrap="nowrap" align="flex-start">
          {d.zip ? <IconFileZip size={16} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} /> : <IconFolder size={16} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} />}
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Anchor component={Link} to={browseLink(d.path)} fw={600} size="sm" style={{ wordBreak: 'break-all' }} aria-label={t('staging.browseName', { name: title })}>
              {title}
            </Anchor>
            <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
              {d.path}
            </Text>
            {/* On a phone the size, count and age columns are hidden: the same facts under the name. */}
            <Text size="xs" c="dimmed" hiddenFrom="sm">
              {d.zip ? formatBytes(d.zip.size, i18n.language) : t('staging.notFromZip')} · {files} · <RelativeTime size="xs" value={dirTime(d)} />
            </Text>
          </Stack>
        </Group>
      </Table.Td>
      <Table.Td visibleFrom="sm" ta="right" style={{ whiteSpace: 'nowrap' }}>
        {d.zip ? formatBytes(d.zip.size, i18n.language) : <Text span size="sm" c="dimmed">{t('staging.notFromZip')}</Text>}
      </Table.Td>
      <Table.Td visibleFrom="sm" ta="right" style={{ whiteSpace: 'nowrap' }}>
        {files}
      </Table.Td>
      <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
        <RelativeTime value={dirTime(d)} />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="wrap">
          <Button component={Link} to={pushLink(d.path)} size="compact-sm" mih={40} leftSection={<IconCloudUpload size={14} aria-hidden />} aria-label={t('staging.pushThisName', { name: title })}>
            {t('staging.pushThis')}
          </Button>
          <Button size="compact-sm" mih={40} variant="light" loading={validating} onClick={onValidate} aria-label={t('staging.validateName', { name: title })}>
            {t('staging.validate')}
          </Button>
          <Button size="compact-sm" mih={40} variant="subtle" color="red" onClick={onDelete} aria-label={t('staging.deleteName', { name: title })}>
            {t('common.delete')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
