/**
 * The allowlist's switch, counts and last refresh, and the operator's own address with the
 * service's verdict. Turning it on first asks the service whether this browser's address is listed;
 * when it is not, a confirmation says that signing in again from here would be refused.
 */
import { Alert, Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AllowlistState, allowlistApi, allowlistQueries } from '../../api/resources/allowlist';
import { settingsQueries } from '../../api/resources/settings';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { RelativeTime } from '../../components/Time';
import { errorText } from '../../i18n/error-text';

export function AllowlistStatus({ state }: { state: AllowlistState }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const check = useQuery(allowlistQueries.check());
  const [lockout, setLockout] = useState<string | null>(null);

  const refresh = () =>
    Promise.all([client.invalidateQueries({ queryKey: allowlistQueries.all }), client.invalidateQueries({ queryKey: settingsQueries.all })]);

  const toggle = useMutation({
    mutationFn: (enabled: boolean) => allowlistApi.toggle(enabled),
    onSuccess: (res) => {
      setLockout(null);
      notifications.show({ color: 'teal', message: res.enabled ? t('allowlist.turnedOn') : t('allowlist.turnedOff') });
      return refresh();
    },
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });
  // Asked afresh at the moment of turning it on: the list may have changed since the page loaded.
  const askFirst = useMutation({
    mutationFn: () => allowlistApi.check(),
    onSuccess: (res) => {
      client.setQueryData(allowlistQueries.check().queryKey, res);
      if (res.listed) toggle.mutate(true);
      else setLockout(res.ip);
    },
  });

  const onChange = (on: boolean) => {
    if (on) askFirst.mutate();
    else toggle.mutate(false);
  };

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="allowlist-status">
      <Stack gap="sm">
        <Title order={2} size="h4" id="allowlist-status">
          {t('allowlist.status')}
        </Title>
        <Switch
          label={t('allowlist.enabled')}
          checked={state.enabled}
          disabled={toggle.isPending || askFirst.isPending}
          onChange={(e) => onChange(e.currentTarget.checked)}
          size="md"
        />
        {askFirst.error && <ErrorDisplay error={askFirst.error} />}
        <Group gap="lg" wrap="wrap">
          <Text size="sm">{t('allowlist.counts.manual', { count: state.manual_count })}</Text>
          <Text size="sm">{t('allowlist.counts.subscription', { count: state.subscription_count })}</Text>
          <Text size="sm" fw={500}>
            {t('allowlist.counts.total', { count: state.total_count })}
          </Text>
          <Text size="sm">
            {t('allowlist.lastRefresh')}: <RelativeTime value={state.last_refresh} />
          </Text>
        </Group>
        {check.data && (
          <Alert
            color={check.data.listed ? 'teal' : 'yellow'}
            icon={check.data.listed ? <IconCircleCheck size={18} aria-hidden /> : <IconAlertTriangle size={18} aria-hidden />}
            title={t('allowlist.yourAddress', { ip: check.data.ip })}
          >
            {check.data.listed ? t('allowlist.youAreListed') : t('allowlist.youAreNotListed')}
          </Alert>
        )}
        {check.error && <ErrorDisplay error={check.error} onRetry={() => void check.refetch()} />}
      </Stack>
      <ConfirmDialog
        opened={lockout !== null}
        title={t('allowlist.lockoutTitle')}
        message={t('allowlist.lockoutMessage', { ip: lockout ?? '' })}
        confirmLabel={t('allowlist.lockoutConfirm')}
        loading={toggle.isPending}
        onConfirm={() => toggle.mutate(true)}
        onClose={() => setLockout(null)}
      />
    </Card>
  );
}
