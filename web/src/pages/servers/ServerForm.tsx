/**
 * Adding or editing a server. A 422 puts its messages on the fields; any other refusal shows above
 * the buttons. When the service wants the operator's own password for this change (setting
 * credential_reauth), the form asks for it and sends the same change again with it.
 */
import { Alert, Button, Group, NumberInput, PasswordInput, Stack, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { ServerView } from '@server/modules/servers/servers.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { servers } from '../../api/endpoints';
import { applyFieldErrors, ErrorDisplay } from '../../components/ErrorDisplay';
import { CredentialFields } from './CredentialFields';
import { initialValues, needsReauth, type ServerFormValues, toBody } from './serverForm';
import { useTouchSize } from './useTouchSize';
import { serverQueries } from '../../api/resources/servers';

export function ServerForm({ server, onSaved, onCancel }: { server: ServerView | null; onSaved: (s: ServerView) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const size = useTouchSize();
  const client = useQueryClient();
  const tags = useQuery({ ...serverQueries.tags(), staleTime: 60_000 });
  const [reauth, setReauth] = useState<string | null>(null);
  const [currentPassword, setCurrentPassword] = useState('');

  const form = useForm<ServerFormValues>({
    initialValues: initialValues(server),
    validate: {
      name: (v) => (v.trim() ? null : t('servers.required')),
      host: (v) => (v.trim() ? null : t('servers.required')),
      port: (v) => (Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= 65535 ? null : t('servers.portRange')),
      ssh_key_preset_id: (v, all) => (all.auth_type === 'key' && all.key_source === 'preset' && !v ? t('servers.choosePreset') : null),
      password_preset_id: (v, all) => (all.auth_type === 'password' && all.password_source === 'preset' && !v ? t('servers.choosePreset') : null),
    },
  });

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof toBody>) => (server ? servers.update(server.id, body) : servers.create(body)),
    onSuccess: (saved) => {
      notifications.show({ color: 'teal', message: server ? t('servers.saved') : t('servers.created') });
      void client.invalidateQueries({ queryKey: serverQueries.all });
      onSaved(saved);
    },
    onError: (err) => {
      if (needsReauth(err)) {
        setReauth(err.detail);
        return;
      }
      applyFieldErrors(form, err);
    },
  });

  const submit = form.onSubmit((values) => {
    const body = toBody(values);
    if (reauth !== null) body.current_password = currentPassword;
    save.mutate(body);
  });

  // The reauth answer is shown in the prompt, not as a general error.
  const showError = save.error && !needsReauth(save.error);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput size={size} label={t('servers.name')} data-autofocus autoComplete="off" {...form.getInputProps('name')} />
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <TextInput size={size} label={t('servers.host')} autoComplete="off" spellCheck={false} style={{ flex: 1, minWidth: 0 }} {...form.getInputProps('host')} />
          <NumberInput
            size={size}
            label={t('servers.port')}
            w={110}
            min={1}
            max={65535}
            allowDecimal={false}
            allowNegative={false}
            hideControls
            {...form.getInputProps('port')}
          />
        </Group>
        <TextInput size={size} label={t('servers.username')} autoComplete="off" spellCheck={false} {...form.getInputProps('username')} />
        <TagsInput
          size={size}
          label={t('servers.tags')}
          description={t('servers.tagsHelp')}
          data={(tags.data ?? []).map((x) => x.tag)}
          clearable
          {...form.getInputProps('tags')}
        />
        <TextInput
          size={size}
          label={t('servers.targetPath')}
          description={t('servers.targetPathHelp')}
          placeholder="/srv/app"
          autoComplete="off"
          spellCheck={false}
          {...form.getInputProps('target_path')}
        />
        <CredentialFields form={form} editing={server !== null} />

        {reauth !== null && (
          <Alert color="yellow" title={t('servers.reauthTitle')} role="alert">
            <Stack gap="xs">
              <span>{t('servers.reauthHelp')}</span>
              <PasswordInput
                size={size}
                label={t('password.current')}
                value={currentPassword}
                onChange={(e) => setCurrentPassword(e.currentTarget.value)}
                autoComplete="current-password"
                data-autofocus
              />
            </Stack>
          </Alert>
        )}
        {showError && <ErrorDisplay error={save.error} />}

        <Group justify="flex-end" mt="xs">
          <Button size={size} variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button size={size} type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
