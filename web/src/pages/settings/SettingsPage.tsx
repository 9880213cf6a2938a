/**
 * Every setting, grouped by purpose, each saved on its own and checked in the browser by the rule
 * the service serves for it (`GET /api/settings/schema`). The login allowlist's keys are edited on
 * their own page, where turning it on first checks the operator's own address.
 */
import { Anchor, Card, Divider, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type SettingDescriptor, settingsQueries } from '../../api/resources/settings';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Page } from '../../components/Page';
import { SettingField } from './SettingField';
import { REVEALERS } from './revealers';

/** Keys edited on another page, which adds what a single field cannot (the lock-out check). */
const ELSEWHERE: Record<string, { to: string; page: 'nav.allowlist' | 'nav.notifications' }> = {
  login_allowlist_enabled: { to: '/allowlist', page: 'nav.allowlist' },
  login_subscription_url: { to: '/allowlist', page: 'nav.allowlist' },
  login_subscription_ips: { to: '/allowlist', page: 'nav.allowlist' },
  login_manual_ips: { to: '/allowlist', page: 'nav.allowlist' },
  login_allowed_ips: { to: '/allowlist', page: 'nav.allowlist' },
};

export default function SettingsPage() {
  const { t } = useTranslation();
  const schema = useQuery(settingsQueries.schema());
  const list = useQuery(settingsQueries.list());
  const stored = new Map((list.data ?? []).map((s) => [s.key, s]));
  const error = schema.error ?? list.error;

  const groups = (schema.data?.groups ?? []).map((g) => ({ group: g, keys: (schema.data?.settings ?? []).filter((d) => d.group === g) }));

  return (
    <Page title={t('settings.title')}>
      <Text size="sm" c="dimmed">
        {t('settings.intro')}
      </Text>
      {error && (
        <ErrorDisplay
          error={error}
          title={t('settings.loadFailed')}
          onRetry={() => {
            void schema.refetch();
            void list.refetch();
          }}
        />
      )}
      {schema.isPending || list.isPending ? (
        <Stack gap="md" role="status" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={160} />
          ))}
        </Stack>
      ) : (
        groups
          .filter((g) => g.keys.length > 0)
          .map(({ group, keys }) => (
            <Card key={group} withBorder padding="md" component="section" aria-labelledby={`settings-group-${group}`}>
              <Title order={2} size="h4" id={`settings-group-${group}`} mb="sm">
                {t(`settings.groups.${group}` as 'settings.title', { defaultValue: group })}
              </Title>
              <GroupFields keys={keys} stored={stored} />
            </Card>
          ))
      )}
    </Page>
  );
}

function GroupFields({ keys, stored }: { keys: SettingDescriptor[]; stored: Map<string, { value: string | null; value_set: boolean | null }> }) {
  const { t } = useTranslation();
  const here = keys.filter((d) => !ELSEWHERE[d.key]);
  const away = keys.filter((d) => ELSEWHERE[d.key]);
  const pages = [...new Map(away.map((d) => [ELSEWHERE[d.key].to, ELSEWHERE[d.key]])).values()];
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" verticalSpacing="md">
        {here.map((d) => (
          <SettingField key={d.key} d={d} stored={stored.get(d.key)} reveal={REVEALERS[d.key]} />
        ))}
      </SimpleGrid>
      {pages.length > 0 && (
        <>
          <Divider />
          <Text size="sm">
            {t('settings.managedElsewhere')}{' '}
            {pages.map((p, i) => (
              <Fragment key={p.to}>
                {i > 0 && ', '}
                <Anchor component={Link} to={p.to} underline="always">
                  {t('settings.openPage', { page: t(p.page) })}
                </Anchor>
              </Fragment>
            ))}
          </Text>
        </>
      )}
    </Stack>
  );
}
