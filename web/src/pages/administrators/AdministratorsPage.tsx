/**
 * Administrators: who can sign in, with their two-factor state; add one, delete one. The last
 * administrator cannot be deleted (the service refuses it too); deleting asks for the name typed.
 */
import { ActionIcon, Badge, Button, Group, Paper, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconShieldCheck, IconShieldOff, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountApi, accountQueries, type Admin } from '../../api/resources/account';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Page } from '../../components/Page';
import { RelativeTime } from '../../components/Time';
import { errorText } from '../../i18n/error-text';
import { AddAdminForm } from './AddAdminForm';

export default function AdministratorsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const admins = useQuery(accountQueries.admins());
  const me = useQuery(accountQueries.me());
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Admin | null>(null);

  const remove = useMutation({
    mutationFn: (a: Admin) => accountApi.deleteAdmin(a.id),
    onSuccess: async (_, a) => {
      notifications.show({ color: 'teal', message: t('account.admins.deleted', { name: a.username }) });
      setDeleting(null);
      await client.invalidateQueries({ queryKey: accountQueries.admins().queryKey });
    },
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });

  const list = admins.data ?? [];
  const last = list.length <= 1;
  return (
    <Page
      title={t('account.admins.title')}
      actions={
        <Button leftSection={<IconUserPlus size={18} aria-hidden />} onClick={() => setAdding(true)}>
          {t('account.admins.add')}
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        {t('account.admins.intro')}
      </Text>
      {admins.error && <ErrorDisplay error={admins.error} onRetry={() => void admins.refetch()} />}
      {admins.isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1].map((i) => (
            <Skeleton key={i} height={56} />
          ))}
        </Stack>
      ) : (
        admins.data && (
          <>
            <Text size="sm" fw={500}>
              {t('account.admins.count', { count: list.length })}
            </Text>
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('account.admins.title')}>
              {list.map((a) => (
                <Paper key={a.id} component="li" withBorder p="sm" radius="md">
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Group gap="xs" wrap="wrap">
                        <Text fw={600} ff="monospace" style={{ wordBreak: 'break-all' }}>
                          {a.username}
                        </Text>
                        {me.data?.id === a.id && (
                          <Badge size="sm" variant="outline" color="gray">
                            {t('account.admins.you')}
                          </Badge>
                        )}
                      </Group>
                      <Group gap="xs" wrap="wrap">
                        <Badge
                          size="sm"
                          variant="light"
                          color={a.totp_enabled ? 'teal' : 'gray'}
                          leftSection={a.totp_enabled ? <IconShieldCheck size={12} aria-hidden /> : <IconShieldOff size={12} aria-hidden />}
                          styles={{ label: { textTransform: 'none' } }}
                        >
                          {t('account.admins.totp')}: {a.totp_enabled ? t('account.admins.totpOn') : t('account.admins.totpOff')}
                        </Badge>
                        <Text size="xs" c="dimmed">
                          {t('account.admins.created')} <RelativeTime value={a.created_at} size="xs" />
                        </Text>
                      </Group>
                    </Stack>
                    <Tooltip label={last ? t('account.admins.lastAdmin') : t('account.admins.deleteNamed', { name: a.username })} withArrow>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        size={40}
                        disabled={last}
                        onClick={() => {
                          remove.reset();
                          setDeleting(a);
                        }}
                        aria-label={t('account.admins.deleteNamed', { name: a.username })}
                        aria-describedby={last ? 'last-admin-note' : undefined}
                      >
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Paper>
              ))}
            </Stack>
            {last && (
              <Text id="last-admin-note" size="sm" c="dimmed">
                {t('account.admins.lastAdmin')}
              </Text>
            )}
          </>
        )
      )}
      {adding && <AddAdminForm onClose={() => setAdding(false)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? t('account.admins.deleteTitle', { name: deleting.username }) : ''}
        message={deleting ? t('account.admins.deleteMessage', { name: deleting.username }) : ''}
        word={deleting?.username}
        confirmLabel={deleting ? t('account.admins.deleteNamed', { name: deleting.username }) : ''}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Page>
  );
}
