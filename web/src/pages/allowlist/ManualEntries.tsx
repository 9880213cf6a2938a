/**
 * Manual entries: the list with a remove button each, and a box to add 1–100 at a time. The batch
 * is first judged line by line by the service's own rule (`/ip-allowlist/validate`); when a line
 * is refused nothing is added and each refused line is named with its error.
 */
import { ActionIcon, Button, Card, Group, List, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ValidateResponse, allowlistApi, allowlistQueries } from '../../api/resources/allowlist';
import { settingsQueries } from '../../api/resources/settings';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { errorText } from '../../i18n/error-text';

export function ManualEntries({ entries }: { entries: string[] }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [refused, setRefused] = useState<ValidateResponse['entries']>([]);
  const refresh = () =>
    Promise.all([client.invalidateQueries({ queryKey: allowlistQueries.all }), client.invalidateQueries({ queryKey: settingsQueries.all })]);

  const add = useMutation({
    mutationFn: async (lines: string[]) => {
      const judged = await allowlistApi.validate(lines);
      const bad = judged.entries.filter((e) => e.error !== null);
      if (bad.length > 0) return { refused: bad, added: 0 };
      const res = await allowlistApi.addManual(lines);
      return { refused: [], added: judged.valid_count, res };
    },
    onSuccess: (r) => {
      setRefused(r.refused);
      if (r.refused.length === 0) {
        setText('');
        notifications.show({ color: 'teal', message: t('allowlist.manual.added', { count: r.added }) });
        return refresh();
      }
    },
  });
  const remove = useMutation({
    mutationFn: (entry: string) => allowlistApi.remove(entry),
    onSuccess: (res) => {
      notifications.show({ color: 'teal', message: t('allowlist.manual.removed', { entry: res.removed }) });
      return refresh();
    },
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });

  const lines = text.split('\n');
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setRefused([]);
    if (text.trim() === '') return;
    add.mutate(lines);
  };

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="allowlist-manual">
      <Stack gap="sm">
        <Title order={2} size="h4" id="allowlist-manual">
          {t('allowlist.manual.title')}
        </Title>
        {entries.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('allowlist.manual.empty')}
          </Text>
        ) : (
          <List listStyleType="none" spacing={2} aria-label={t('allowlist.manual.title')}>
            {entries.map((entry) => (
              <List.Item key={entry}>
                <Group gap="xs" wrap="nowrap">
                  <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all', flex: 1 }}>
                    {entry}
                  </Text>
                  <Tooltip label={t('allowlist.manual.remove', { entry })}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={t('allowlist.manual.remove', { entry })}
                      loading={remove.isPending && remove.variables === entry}
                      onClick={() => remove.mutate(entry)}
                    >
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
        <form onSubmit={submit} noValidate>
          <Stack gap="xs">
            <Textarea
              label={t('allowlist.manual.addLabel')}
              description={t('allowlist.manual.addHelp')}
              value={text}
              onChange={(e) => {
                setText(e.currentTarget.value);
                setRefused([]);
              }}
              autosize
              minRows={3}
              maxRows={12}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              error={refused.length > 0 ? t('allowlist.manual.linesRefused', { count: refused.length }) : undefined}
            />
            {refused.length > 0 && (
              <div role="alert">
                <List size="sm" c="var(--mantine-color-error)" spacing={2}>
                  {refused.map((r) => (
                    <List.Item key={r.line}>{t('allowlist.manual.lineError', { line: r.line, input: r.input })}</List.Item>
                  ))}
                </List>
              </div>
            )}
            {add.error && <ErrorDisplay error={add.error} />}
            <Group>
              <Button type="submit" leftSection={<IconPlus size={16} aria-hidden />} loading={add.isPending} disabled={text.trim() === ''}>
                {t('allowlist.manual.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
