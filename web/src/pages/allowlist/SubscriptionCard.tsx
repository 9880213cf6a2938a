/**
 * The subscription: its URL with a preview (fetched and parsed by the service through the same
 * guarded fetch, nothing saved), save, refresh now, and the entries it gave last time.
 */
import { Button, Card, Group, ScrollArea, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconEye, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AllowlistState, allowlistApi, allowlistQueries } from '../../api/resources/allowlist';
import { settingsQueries } from '../../api/resources/settings';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { errorText } from '../../i18n/error-text';

function Hosts({ hosts, label }: { hosts: string[]; label: string }) {
  return (
    <ScrollArea.Autosize mah={180} type="auto" offsetScrollbars>
      <Text component="ul" aria-label={label} ff="monospace" size="sm" m={0} pl="md" style={{ wordBreak: 'break-all' }}>
        {hosts.map((h) => (
          <li key={h}>{h}</li>
        ))}
      </Text>
    </ScrollArea.Autosize>
  );
}

export function SubscriptionCard({ state }: { state: AllowlistState }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [url, setUrl] = useState<string | null>(null);
  const value = url ?? state.subscription_url;
  const refresh = () =>
    Promise.all([client.invalidateQueries({ queryKey: allowlistQueries.all }), client.invalidateQueries({ queryKey: settingsQueries.all })]);

  const preview = useMutation({ mutationFn: (u: string) => allowlistApi.preview(u) });
  const save = useMutation({
    // The manual list goes with it unchanged: this call stores both.
    mutationFn: (u: string) => allowlistApi.save({ manual_ips: state.manual_ips, subscription_url: u }),
    onSuccess: (res) => {
      setUrl(null);
      if (res.refresh_ok) notifications.show({ color: 'teal', message: t('allowlist.subscription.saved') });
      else notifications.show({ color: 'yellow', message: t('allowlist.subscription.savedRefreshFailed', { error: res.refresh_error ?? '' }) });
      return refresh();
    },
  });
  const refreshNow = useMutation({
    mutationFn: () => allowlistApi.refresh(),
    onSuccess: (res) => {
      if (res.refresh_ok) notifications.show({ color: 'teal', message: t('allowlist.subscription.refreshed', { count: res.subscription_count }) });
      else notifications.show({ color: 'yellow', message: t('allowlist.subscription.refreshFailed', { error: res.refresh_error ?? '' }) });
      return refresh();
    },
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });

  const dirty = value.trim() !== state.subscription_url;

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="allowlist-subscription">
      <Stack gap="sm">
        <Title order={2} size="h4" id="allowlist-subscription">
          {t('allowlist.subscription.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('allowlist.subscription.help')}
        </Text>
        <TextInput
          label={t('allowlist.subscription.url')}
          value={value}
          onChange={(e) => {
            setUrl(e.currentTarget.value);
            preview.reset();
            save.reset();
          }}
          type="url"
          autoComplete="off"
          error={save.error ? errorText(save.error, t) : undefined}
        />
        <Group gap="xs" wrap="wrap">
          <Button variant="default" leftSection={<IconEye size={16} aria-hidden />} loading={preview.isPending} disabled={value.trim() === ''} onClick={() => preview.mutate(value.trim())}>
            {t('allowlist.subscription.preview')}
          </Button>
          <Button loading={save.isPending} disabled={!dirty} onClick={() => save.mutate(value.trim())}>
            {value.trim() === '' && state.subscription_url ? t('allowlist.subscription.clear') : t('allowlist.subscription.save')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={refreshNow.isPending}
            disabled={!state.subscription_url}
            onClick={() => refreshNow.mutate()}
          >
            {t('allowlist.subscription.refresh')}
          </Button>
        </Group>
        {preview.error && <ErrorDisplay error={preview.error} />}
        {preview.data && (
          <Stack gap={4} aria-live="polite">
            <Text size="sm" fw={500}>
              {t('allowlist.subscription.previewCount', { count: preview.data.count })}
            </Text>
            <Hosts hosts={preview.data.hosts} label={t('allowlist.subscription.previewHosts')} />
          </Stack>
        )}
        {state.subscription_ips.length > 0 && !preview.data && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('allowlist.subscription.entries')}
            </Text>
            <Hosts hosts={state.subscription_ips} label={t('allowlist.subscription.entries')} />
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
