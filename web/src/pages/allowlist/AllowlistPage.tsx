/**
 * The login IP allowlist: on/off (with the lock-out check first), counts and last refresh, the
 * manual entries, and the subscription with its preview and refresh.
 */
import { SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { allowlistQueries } from '../../api/resources/allowlist';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Page } from '../../components/Page';
import { AllowlistStatus } from './AllowlistStatus';
import { ManualEntries } from './ManualEntries';
import { SubscriptionCard } from './SubscriptionCard';

export default function AllowlistPage() {
  const { t } = useTranslation();
  const state = useQuery(allowlistQueries.state());
  return (
    <Page title={t('allowlist.title')}>
      <Text size="sm" c="dimmed">
        {t('allowlist.intro')}
      </Text>
      {state.error && <ErrorDisplay error={state.error} onRetry={() => void state.refetch()} />}
      {state.isPending ? (
        <Stack gap="md" role="status" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={140} />
          <Skeleton height={220} />
        </Stack>
      ) : (
        state.data && (
          <>
            <AllowlistStatus state={state.data} />
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              <ManualEntries entries={state.data.manual_ips} />
              <SubscriptionCard state={state.data} />
            </SimpleGrid>
          </>
        )
      )}
    </Page>
  );
}
