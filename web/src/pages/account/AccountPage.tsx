/** The signed-in administrator's own account: password, two-factor, the API key, other sessions. */
import { Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { IconLogout } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountApi, accountQueries } from '../../api/resources/account';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Page } from '../../components/Page';
import { ApiKeySection } from './ApiKeySection';
import { PasswordSection } from './PasswordSection';
import { TotpSection } from './TotpSection';

function SessionsSection() {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const signOut = useMutation({
    mutationFn: accountApi.signOutOthers,
    onSuccess: () => {
      setConfirming(false);
      notifications.show({ color: 'teal', message: t('account.account.sessions.done') });
    },
  });
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="account-sessions">
      <Stack gap="sm">
        <Title order={2} size="h4" id="account-sessions">
          {t('account.account.sessions.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('account.account.sessions.help')}
        </Text>
        <ErrorDisplay error={signOut.error} />
        <Button
          variant="light"
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => {
            signOut.reset();
            setConfirming(true);
          }}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('account.account.sessions.signOutOthers')}
        </Button>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('account.account.sessions.signOutOthers')}
        message={t('account.account.sessions.confirm')}
        confirmLabel={t('account.account.sessions.signOutOthers')}
        loading={signOut.isPending}
        onConfirm={() => signOut.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}

export default function AccountPage() {
  const { t } = useTranslation();
  const me = useQuery(accountQueries.me());
  return (
    <Page title={t('account.account.title')}>
      {me.data && (
        <Text size="sm" c="dimmed">
          {t('account.account.signedInAs', { name: me.data.username })}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="md">
          <PasswordSection />
          <SessionsSection />
        </Stack>
        <Stack gap="md">
          <TotpSection />
          <ApiKeySection />
        </Stack>
      </SimpleGrid>
    </Page>
  );
}
