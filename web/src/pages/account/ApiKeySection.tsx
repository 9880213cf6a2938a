/**
 * The API key: revealed after the password for 30 seconds, rotated with the password (the old
 * key stops working at once, the new one is shown).
 */
import { Button, Group, Modal, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconRefresh } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountApi } from '../../api/resources/account';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { RevealedSecret } from '../../components/RevealedSecret';
import { RevealSecret } from '../../components/RevealSecret';

export function ApiKeySection() {
  const { t } = useTranslation();
  const [key, setKey] = useState<string | null>(null);
  const [rotating, setRotating] = useState(false);
  const [password, setPassword] = useState('');
  const hide = useCallback(() => setKey(null), []);
  const rotate = useMutation({
    mutationFn: () => accountApi.rotateApiKey(password),
    onSuccess: (r) => {
      setPassword('');
      setRotating(false);
      setKey(r.value);
    },
  });
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="account-api-key">
      <Stack gap="sm">
        <Title order={2} size="h4" id="account-api-key">
          {t('account.account.apiKey.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('account.account.apiKey.help')}
        </Text>
        {key !== null ? (
          <RevealedSecret label={t('account.account.apiKey.label')} value={key} onHide={hide} />
        ) : (
          <Group gap="xs">
            <RevealSecret name={t('account.account.apiKey.label')} reveal={accountApi.revealApiKey} />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => {
                rotate.reset();
                setRotating(true);
              }}
            >
              {t('account.account.apiKey.rotate')}
            </Button>
          </Group>
        )}
      </Stack>
      <Modal opened={rotating} onClose={() => setRotating(false)} title={t('account.account.apiKey.rotateTitle')} centered>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            rotate.mutate();
          }}
        >
          <Stack>
            <Text size="sm">{t('account.account.apiKey.rotateHelp')}</Text>
            <ErrorDisplay error={rotate.error} />
            <PasswordInput
              label={t('account.account.apiKey.currentPassword')}
              required
              data-autofocus
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" color="red" loading={rotate.isPending}>
              {t('account.account.apiKey.rotate')}
            </Button>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
