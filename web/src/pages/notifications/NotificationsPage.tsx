/**
 * The messenger bot (tokens, chat discovery, a test message), the optional offline-alert bot, and
 * which events notify (the `notify_*` switches, each saved at once).
 */
import { Card, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { settingsQueries } from '../../api/resources/settings';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Page } from '../../components/Page';
import { SettingField } from '../settings/SettingField';
import { BotCard } from './BotCard';

export default function NotificationsPage() {
  const { t } = useTranslation();
  const schema = useQuery(settingsQueries.schema());
  const list = useQuery(settingsQueries.list());
  const byKey = new Map((schema.data?.settings ?? []).map((d) => [d.key, d]));
  const stored = new Map((list.data ?? []).map((s) => [s.key, s]));
  const events = (schema.data?.settings ?? []).filter((d) => d.group === 'notifications');
  const error = schema.error ?? list.error;

  return (
    <Page title={t('notifications.title')}>
      <Text size="sm" c="dimmed">
        {t('notifications.intro')}
      </Text>
      {error && (
        <ErrorDisplay
          error={error}
          onRetry={() => {
            void schema.refetch();
            void list.refetch();
          }}
        />
      )}
      {schema.isPending || list.isPending ? (
        <Stack gap="md" role="status" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={220} />
          <Skeleton height={220} />
        </Stack>
      ) : (
        schema.data &&
        list.data && (
          <>
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              {(['default', 'offline'] as const).map((kind) => (
                <BotCard key={kind} kind={kind} describe={(k) => byKey.get(k)} stored={(k) => stored.get(k)} />
              ))}
            </SimpleGrid>
            <Card withBorder padding="md" component="section" aria-labelledby="notify-events">
              <Title order={2} size="h4" id="notify-events">
                {t('notifications.events')}
              </Title>
              <Text size="sm" c="dimmed" mb="sm">
                {t('notifications.eventsHelp')}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                {events.map((d) => (
                  <SettingField key={d.key} d={d} stored={stored.get(d.key)} />
                ))}
              </SimpleGrid>
            </Card>
          </>
        )
      )}
    </Page>
  );
}
