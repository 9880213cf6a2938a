/**
 * A stored secret shown only after the administrator re-enters their password, then hidden again
 * after 30 seconds or at once (RevealedSecret shows it). The service checks the password (400
 * wrong_password, counted toward the login lockout); its refusal is shown under the field.
 */
import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconEye } from '@tabler/icons-react';
import { type FormEvent, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../i18n/error-text';
import { RevealedSecret } from './RevealedSecret';

export function RevealSecret({ name, reveal }: { name: string; reveal: (password: string) => Promise<{ value: string }> }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [password, setPassword] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const ask = useMutation({
    mutationFn: (pw: string) => reveal(pw),
    onSuccess: (res) => {
      setShown(res.value);
      setOpened(false);
      setPassword('');
    },
  });

  const hideShown = useCallback(() => setShown(null), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password) ask.mutate(password);
  };
  const close = () => {
    setOpened(false);
    setPassword('');
    ask.reset();
  };

  return (
    <>
      {shown === null ? (
        <Button
          variant="default"
          size="sm"
          leftSection={<IconEye size={16} aria-hidden />}
          onClick={() => {
            ask.reset();
            setOpened(true);
          }}
        >
          {t('settings.reveal.button', { name })}
        </Button>
      ) : (
        <RevealedSecret label={t('settings.reveal.value', { name })} value={shown} onHide={hideShown} />
      )}
      <Modal opened={opened} onClose={close} title={t('settings.reveal.title', { name })} centered>
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">{t('settings.reveal.passwordHint')}</Text>
            <PasswordInput
              label={t('settings.reveal.password')}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={ask.error ? errorText(ask.error, t) : undefined}
              autoComplete="current-password"
              data-autofocus
              required
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={ask.isPending} disabled={!password}>
                {t('settings.reveal.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
