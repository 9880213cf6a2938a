/** Reveal a preset's secret: the admin's own password first, then the secret for 30 seconds. */
import { Button, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { credentialsApi, type PresetKind } from '../../api/resources/credentials';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { RevealedSecret } from '../../components/RevealedSecret';

export interface RevealTarget {
  kind: PresetKind;
  id: number;
  name: string;
}

export function RevealDialog({ target, onClose }: { target: RevealTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const reveal = useMutation({
    mutationFn: async (p: { target: RevealTarget; password: string }) =>
      p.target.kind === 'password'
        ? (await credentialsApi.revealPassword(p.target.id, p.password)).password
        : (await credentialsApi.revealSshKey(p.target.id, p.password)).private_key,
    onSuccess: (value) => {
      setPassword('');
      setSecret(value);
    },
  });
  const close = useCallback(() => {
    setSecret(null);
    setPassword('');
    reveal.reset();
    onClose();
  }, [onClose, reveal]);
  const hide = useCallback(() => setSecret(null), []);
  const name = target?.name ?? '';
  return (
    <Modal opened={target !== null} onClose={close} title={t('credentials.revealTitle', { name })} centered size="lg">
      {secret !== null && target ? (
        <RevealedSecret
          label={target.kind === 'password' ? t('credentials.revealedPassword', { name }) : t('credentials.revealedPrivateKey', { name })}
          value={secret}
          multiline={target.kind === 'ssh_key'}
          onHide={hide}
        />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (target) reveal.mutate({ target, password });
          }}
        >
          <Stack>
            <Text size="sm">{t('credentials.revealHelp')}</Text>
            <ErrorDisplay error={reveal.error} />
            <PasswordInput
              label={t('credentials.currentPassword')}
              autoComplete="current-password"
              required
              data-autofocus
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={reveal.isPending}>
              {t('credentials.reveal')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
