/**
 * How the service logs in to the server: an SSH key or a password, each either entered here
 * (a key can be read from a file) or taken from a saved preset. Secrets are write-only: on edit
 * an empty field keeps the stored one.
 */
import { Button, FileButton, Group, PasswordInput, Radio, Select, Stack, Text, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconFileUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { credentials } from '../../api/endpoints';
import type { ServerFormValues } from './serverForm';
import { useTouchSize } from './useTouchSize';

/** Private keys are a few KiB; anything much larger is not one. */
const MAX_KEY_FILE = 64 * 1024;

export function CredentialFields({ form, editing }: { form: UseFormReturnType<ServerFormValues>; editing: boolean }) {
  const { t } = useTranslation();
  const size = useTouchSize();
  const v = form.getValues();
  const keyPresets = useQuery({ queryKey: ['credentials', 'ssh-key-presets'], queryFn: credentials.sshKeyPresets, enabled: v.auth_type === 'key' && v.key_source === 'preset' });
  const pwPresets = useQuery({ queryKey: ['credentials', 'password-presets'], queryFn: credentials.passwordPresets, enabled: v.auth_type === 'password' && v.password_source === 'preset' });
  const [fileError, setFileError] = useState<string | null>(null);

  const readKey = async (file: File | null) => {
    setFileError(null);
    if (!file) return;
    try {
      if (file.size > MAX_KEY_FILE) throw new Error('too large');
      form.setFieldValue('private_key', await file.text());
    } catch {
      setFileError(t('servers.readKeyFailed'));
    }
  };

  const sourceRadios = (field: 'key_source' | 'password_source') => (
    <Radio.Group label={t('servers.credentialSource')} {...form.getInputProps(field)} key={form.key(field)}>
      <Group gap="lg" mt={6}>
        <Radio size={size} value="inline" label={t('servers.inline')} />
        <Radio size={size} value="preset" label={t('servers.preset')} />
      </Group>
    </Radio.Group>
  );
  const keepHelp = editing ? ` ${t('servers.keepSecret')}` : '';

  return (
    <Stack gap="sm">
      <Radio.Group label={t('servers.authType')} {...form.getInputProps('auth_type')} key={form.key('auth_type')}>
        <Group gap="lg" mt={6}>
          <Radio size={size} value="key" label={t('servers.authKey')} />
          <Radio size={size} value="password" label={t('servers.authPassword')} />
        </Group>
      </Radio.Group>

      {v.auth_type === 'key' ? (
        <>
          {sourceRadios('key_source')}
          {v.key_source === 'inline' ? (
            <Stack gap={6}>
              <Textarea
                size={size}
                label={t('servers.privateKey')}
                description={`${t('servers.privateKeyHelp')}${keepHelp}`}
                placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
                rows={5}
                resize="vertical"
                spellCheck={false}
                autoComplete="off"
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
                {...form.getInputProps('private_key')}
                key={form.key('private_key')}
              />
              <Group gap="xs">
                <FileButton onChange={(f) => void readKey(f)}>
                  {(props) => (
                    <Button {...props} variant="default" size={size} leftSection={<IconFileUpload size={16} />}>
                      {t('servers.readKeyFile')}
                    </Button>
                  )}
                </FileButton>
                {fileError && (
                  <Text size="sm" c="red" role="alert">
                    {fileError}
                  </Text>
                )}
              </Group>
            </Stack>
          ) : (
            <Select
              size={size}
              label={t('servers.sshKeyPreset')}
              placeholder={t('servers.choosePreset')}
              data={(keyPresets.data ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (${p.username})` }))}
              searchable
              nothingFoundMessage={t('common.none')}
              {...form.getInputProps('ssh_key_preset_id')}
              key={form.key('ssh_key_preset_id')}
            />
          )}
        </>
      ) : (
        <>
          {sourceRadios('password_source')}
          {v.password_source === 'inline' ? (
            <PasswordInput
              size={size}
              label={t('servers.password')}
              description={`${t('servers.passwordHelp')}${keepHelp}`}
              autoComplete="new-password"
              {...form.getInputProps('password')}
              key={form.key('password')}
            />
          ) : (
            <Select
              size={size}
              label={t('servers.passwordPreset')}
              placeholder={t('servers.choosePreset')}
              data={(pwPresets.data ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (${p.username})` }))}
              searchable
              nothingFoundMessage={t('common.none')}
              {...form.getInputProps('password_preset_id')}
              key={form.key('password_preset_id')}
            />
          )}
        </>
      )}
    </Stack>
  );
}
