/**
 * The editor: saved scripts on the left (a list on desktop, a select on phones), the script's name
 * and text, Save and Delete; below, the servers to run it on (the push flow's picker: tags,
 * search, all matching) and Run, which starts the run in the background and opens its live view.
 * A saved script that was not changed runs by id (the run history names it); else the text runs.
 */
import { Button, Grid, Group, NavLink, NumberInput, Paper, ScrollArea, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { scriptQueries, scriptsApi } from '../../api/resources/scripts';
import { useStartWork } from '../../api/start-work';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { ServersStep } from '../push/ServersStep';
import { ScriptEditor } from './ScriptEditor';

const DEFAULT_TIMEOUT = 60;

export function EditorView() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const selectedId = Number(params.get('script')) || null;
  const list = useQuery(scriptQueries.list());
  const current = list.data?.find((s) => s.id === selectedId) ?? null;

  const [name, setName] = useState('');
  const [content, setContent] = useState('');
  const [servers, setServers] = useState<Set<number>>(new Set());
  const [timeout, setTimeoutS] = useState<number | string>(DEFAULT_TIMEOUT);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const helpId = useId();

  // Opening another script (or the list arriving, or a save) loads its text into the editor.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the id switches scripts even when two have the same text
  useEffect(() => {
    setName(current?.name ?? '');
    setContent(current?.content ?? '');
  }, [current?.id, current?.name, current?.content]);

  const dirty = current ? name !== current.name || content !== current.content : content.trim() !== '' || name.trim() !== '';
  const open = (id: number | null) =>
    setParams((p) => {
      const out = new URLSearchParams(p);
      if (id) out.set('script', String(id));
      else out.delete('script');
      return out;
    });

  const save = useMutation({
    mutationFn: () => (current ? scriptsApi.update(current.id, { name: name.trim(), content }) : scriptsApi.create({ name: name.trim(), content })),
    onSuccess: (s) => {
      void client.invalidateQueries({ queryKey: scriptQueries.all });
      notifications.show({ color: 'teal', message: t('scripts.saved') });
      open(s.id);
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => scriptsApi.remove(id),
    onSuccess: () => {
      setConfirmDelete(false);
      void client.invalidateQueries({ queryKey: scriptQueries.all });
      notifications.show({ color: 'teal', message: t('scripts.deleted') });
      open(null);
    },
  });
  const run = useStartWork<string, void>({
    work: (key) =>
      scriptsApi.start(
        {
          server_ids: [...servers],
          ...(current && !dirty ? { script_id: current.id } : { script_content: content }),
          timeout: Number(timeout) || DEFAULT_TIMEOUT,
        },
        key,
      ),
    onSuccess: (runId) => {
      void client.invalidateQueries({ queryKey: scriptQueries.runsAll });
      void navigate(`/scripts/runs/${encodeURIComponent(runId)}`);
    },
  });
  const startRun = () => {
    if (!content.trim()) return setProblem(t('scripts.emptyScript'));
    if (servers.size === 0) return setProblem(t('scripts.pickServers'));
    setProblem(null);
    run.start();
  };

  const scripts = list.data ?? [];
  return (
    <Stack gap="lg">
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap">
              <Title order={2} size="h4">
                {t('scripts.savedScripts')}
              </Title>
            </Group>
            <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => open(null)} mih={40}>
              {t('scripts.newScript')}
            </Button>
            <ErrorDisplay error={list.error} onRetry={() => void list.refetch()} />
            {list.data && scripts.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('scripts.noScripts')}
              </Text>
            )}
            {scripts.length > 0 && (
              <>
                <Select
                  hiddenFrom="md"
                  label={t('scripts.savedScripts')}
                  data={scripts.map((s) => ({ value: String(s.id), label: s.name }))}
                  value={current ? String(current.id) : null}
                  onChange={(v) => open(v ? Number(v) : null)}
                  placeholder={t('scripts.unsavedScript')}
                  searchable
                />
                <ScrollArea.Autosize mah={420} visibleFrom="md">
                  <nav aria-label={t('scripts.savedScripts')}>
                    {scripts.map((s) => (
                      <NavLink
                        key={s.id}
                        href={`/scripts?script=${s.id}`}
                        label={s.name}
                        active={s.id === current?.id}
                        aria-current={s.id === current?.id ? 'page' : undefined}
                        onClick={(e) => {
                          e.preventDefault();
                          open(s.id);
                        }}
                      />
                    ))}
                  </nav>
                </ScrollArea.Autosize>
              </>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Paper withBorder p="md">
            <Stack gap="sm">
              <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
                <TextInput label={t('scripts.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} required style={{ flex: '1 1 240px' }} maxLength={200} />
                <Group gap="xs">
                  {dirty && (
                    <Text size="sm" c="dimmed" aria-live="polite">
                      {t('scripts.unsaved')}
                    </Text>
                  )}
                  <Button
                    leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                    onClick={() => save.mutate()}
                    loading={save.isPending}
                    disabled={!name.trim() || !content.trim() || (current !== null && !dirty)}
                    mih={40}
                  >
                    {t('common.save')}
                  </Button>
                  {current && (
                    <Button variant="light" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setConfirmDelete(true)} mih={40}>
                      {t('scripts.deleteScript')}
                    </Button>
                  )}
                </Group>
              </Group>
              <ErrorDisplay error={save.error ?? remove.error} />
              <Text size="sm" fw={500} aria-hidden>
                {t('scripts.content')}
              </Text>
              <ScriptEditor value={content} onChange={setContent} label={t('scripts.content')} describedBy={helpId} />
              <Text id={helpId} size="xs" c="dimmed">
                {t('scripts.editorHelp')}
              </Text>
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
      <Paper withBorder p="md">
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('scripts.runTitle')}
          </Title>
          <ServersStep selected={servers} onChange={setServers} />
          <Group align="flex-end" wrap="wrap" gap="sm">
            <NumberInput label={t('scripts.timeout')} value={timeout} onChange={setTimeoutS} min={1} max={3600} w={{ base: '100%', xs: 200 }} />
            <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={startRun} loading={run.pending} mih={40}>
              {t('scripts.runOn', { count: servers.size })}
            </Button>
          </Group>
          {problem && (
            <Text c="red" size="sm" role="alert">
              {problem}
            </Text>
          )}
          <ErrorDisplay error={run.error} />
        </Stack>
      </Paper>
      <ConfirmDialog
        opened={confirmDelete}
        title={t('scripts.deleteTitle', { name: current?.name ?? '' })}
        message={t('scripts.deleteBody')}
        confirmLabel={t('scripts.deleteScript')}
        loading={remove.isPending}
        onConfirm={() => current && remove.mutate(current.id)}
        onClose={() => setConfirmDelete(false)}
      />
    </Stack>
  );
}
