/** A new administrator: a username and an initial password they change themselves later. */
import { Button, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accountApi, accountQueries } from '../../api/resources/account';
import { applyFieldErrors, ErrorDisplay } from '../../components/ErrorDisplay';

export function AddAdminForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm({ initialValues: { username: '', password: '' } });
  const add = useMutation({
    mutationFn: accountApi.createAdmin,
    onSuccess: async (admin) => {
      notifications.show({ color: 'teal', message: t('account.admins.added', { name: admin.username }) });
      await client.invalidateQueries({ queryKey: accountQueries.admins().queryKey });
      onClose();
    },
    onError: (err) => applyFieldErrors(form, err),
  });
  return (
    <Modal opened onClose={onClose} title={t('account.admins.add')} centered>
      <form onSubmit={form.onSubmit((v) => add.mutate({ username: v.username.trim(), password: v.password }))}>
        <Stack>
          <ErrorDisplay error={add.error} />
          <TextInput
            label={t('account.admins.username')}
            description={t('account.admins.usernameHelp')}
            required
            maxLength={100}
            autoComplete="off"
            data-autofocus
            {...form.getInputProps('username')}
          />
          <PasswordInput
            label={t('account.admins.password')}
            description={t('account.admins.passwordHelp')}
            required
            minLength={8}
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={add.isPending}>
            {t('account.admins.add')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
