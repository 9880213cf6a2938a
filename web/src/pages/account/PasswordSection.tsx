/**
 * Changing the password. The service then refuses every earlier token, this tab's too, so the
 * page signs out here and opens the login page, which brings the admin back to this page.
 */
import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { accountApi } from '../../api/resources/account';
import { saveSession } from '../../api/session';
import { applyFieldErrors, ErrorDisplay } from '../../components/ErrorDisplay';

export function PasswordSection() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const form = useForm({
    initialValues: { current_password: '', new_password: '', repeat: '' },
    validate: { repeat: (v, values) => (v === values.new_password ? null : t('account.account.password.mismatch')) },
  });
  const change = useMutation({
    mutationFn: (v: { current_password: string; new_password: string }) => accountApi.changePassword(v),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('account.account.password.done') });
      saveSession(null);
      client.clear();
      void navigate(`/login?next=${encodeURIComponent('/account')}`, { replace: true });
    },
    onError: (err) => applyFieldErrors(form, err),
  });
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="account-password">
      <form onSubmit={form.onSubmit((v) => change.mutate({ current_password: v.current_password, new_password: v.new_password }))}>
        <Stack gap="sm">
          <Title order={2} size="h4" id="account-password">
            {t('account.account.password.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('account.account.password.help')}
          </Text>
          <ErrorDisplay error={change.error} />
          <PasswordInput label={t('account.account.password.current')} autoComplete="current-password" required {...form.getInputProps('current_password')} />
          <PasswordInput
            label={t('account.account.password.next')}
            description={t('account.account.password.nextHelp')}
            autoComplete="new-password"
            required
            minLength={8}
            {...form.getInputProps('new_password')}
          />
          <PasswordInput label={t('account.account.password.repeat')} autoComplete="new-password" required {...form.getInputProps('repeat')} />
          <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('account.account.password.submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
