/** Add or edit a preset (password or SSH key). On edit a blank secret keeps the stored one. */
import { Button, Modal, PasswordInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { credentialQueries, credentialsApi, type PresetKind } from '../../api/resources/credentials';
import { applyFieldErrors, ErrorDisplay } from '../../components/ErrorDisplay';

export interface PresetEdit {
  kind: PresetKind;
  /** Absent: a new preset. */
  id?: number;
  name?: string;
  username?: string;
  public_key?: string;
}

interface Values {
  name: string;
  username: string;
  secret: string;
  public_key: string;
}

function save(edit: PresetEdit, v: Values) {
  const username = v.username.trim() || null;
  if (edit.kind === 'password') {
    if (edit.id === undefined) return credentialsApi.createPassword({ name: v.name, username, encrypted_pw: v.secret });
    return credentialsApi.updatePassword(edit.id, { name: v.name, username, ...(v.secret ? { encrypted_pw: v.secret } : {}) });
  }
  const public_key = v.public_key.trim() || undefined;
  if (edit.id === undefined) return credentialsApi.createSshKey({ name: v.name, username, private_key: v.secret, public_key });
  return credentialsApi.updateSshKey(edit.id, { name: v.name, username, ...(v.secret ? { private_key: v.secret } : {}), ...(public_key ? { public_key } : {}) });
}

export function PresetForm({ edit, onClose }: { edit: PresetEdit; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const isNew = edit.id === undefined;
  const form = useForm<Values>({
    initialValues: { name: edit.name ?? '', username: edit.username ?? '', secret: '', public_key: edit.public_key ?? '' },
  });
  const mutation = useMutation({
    mutationFn: (v: Values) => save(edit, v),
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('credentials.saved') });
      await client.invalidateQueries({ queryKey: credentialQueries.all });
      onClose();
    },
    onError: (err) => applyFieldErrors(form, err),
  });
  const title =
    edit.kind === 'password'
      ? t(isNew ? 'credentials.addPassword' : 'credentials.editPassword')
      : t(isNew ? 'credentials.addSshKey' : 'credentials.editSshKey');
  return (
    <Modal opened onClose={onClose} title={title} centered size={edit.kind === 'ssh_key' ? 'lg' : 'md'}>
      <form onSubmit={form.onSubmit((v) => mutation.mutate(v))}>
        <Stack>
          <ErrorDisplay error={mutation.error} />
          <TextInput label={t('credentials.name')} required maxLength={100} data-autofocus {...form.getInputProps('name')} />
          <TextInput label={t('credentials.username')} description={t('credentials.usernameHelp')} maxLength={100} autoComplete="off" {...form.getInputProps('username')} />
          {edit.kind === 'password' ? (
            <PasswordInput
              label={t('credentials.password')}
              description={isNew ? undefined : t('credentials.passwordKeep')}
              required={isNew}
              autoComplete="new-password"
              {...form.getInputProps('secret')}
            />
          ) : (
            <>
              <Textarea
                label={t('credentials.privateKey')}
                description={isNew ? t('credentials.privateKeyHelp') : t('credentials.privateKeyKeep')}
                required={isNew}
                autosize
                minRows={4}
                maxRows={10}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                spellCheck={false}
                {...form.getInputProps('secret')}
              />
              <Textarea
                label={t('credentials.publicKey')}
                description={t('credentials.publicKeyHelp')}
                autosize
                minRows={2}
                maxRows={4}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                spellCheck={false}
                {...form.getInputProps('public_key')}
              />
            </>
          )}
          <Button type="submit" loading={mutation.isPending}>
            {t('common.save')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
