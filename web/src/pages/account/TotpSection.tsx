/**
 * Two-factor authentication. Setup makes a secret (shown as a QR code of its otpauth URI and as
 * text to type in); it is switched on only when a first code and the password are right.
 * Turning it off takes the password.
 */
import { Badge, Button, Group, Image, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountApi, accountQueries } from '../../api/resources/account';
import { CopyText } from '../../components/CopyText';
import { ErrorDisplay } from '../../components/ErrorDisplay';

interface Setup {
  secret: string;
  otpauth_url: string;
  qr: string;
}

function EnableForm({ setup, onDone, onCancel }: { setup: Setup; onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const enable = useMutation({
    mutationFn: () => accountApi.totpEnable({ code: code.trim(), current_password: password }),
    onSuccess: onDone,
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        enable.mutate();
      }}
    >
      <Stack gap="sm">
        <Text size="sm">{t('account.account.totp.scan')}</Text>
        <Image src={setup.qr} alt={t('account.account.totp.qrAlt')} w={200} h={200} radius="sm" bg="white" p={8} />
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {t('account.account.totp.secret')}
          </Text>
          <div data-testid="totp-secret">
            <CopyText value={setup.secret} label={t('account.account.totp.secret')} breakAll />
          </div>
        </Stack>
        <ErrorDisplay error={enable.error} />
        <TextInput
          label={t('account.account.totp.code')}
          description={t('account.account.totp.codeHelp')}
          required
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
        />
        <PasswordInput
          label={t('account.account.totp.currentPassword')}
          required
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Group gap="xs">
          <Button type="submit" loading={enable.isPending}>
            {t('account.account.totp.enable')}
          </Button>
          <Button variant="default" onClick={onCancel}>
            {t('account.account.totp.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const disable = useMutation({ mutationFn: () => accountApi.totpDisable(password), onSuccess: onDone });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        disable.mutate();
      }}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('account.account.totp.disableHelp')}
        </Text>
        <ErrorDisplay error={disable.error} />
        <PasswordInput
          label={t('account.account.totp.currentPassword')}
          required
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Button type="submit" color="red" variant="light" loading={disable.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('account.account.totp.disable')}
        </Button>
      </Stack>
    </form>
  );
}

export function TotpSection() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const me = useQuery(accountQueries.me());
  const [setup, setSetup] = useState<Setup | null>(null);
  const start = useMutation({
    mutationFn: async () => {
      const s = await accountApi.totpSetup();
      return { ...s, qr: await QRCode.toDataURL(s.otpauth_url, { margin: 1, width: 200 }) };
    },
    onSuccess: setSetup,
  });
  const refresh = async (message: string) => {
    setSetup(null);
    notifications.show({ color: 'teal', message });
    await Promise.all([client.invalidateQueries({ queryKey: ['me'] }), client.invalidateQueries({ queryKey: accountQueries.admins().queryKey })]);
  };
  const on = me.data?.totp_enabled ?? false;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="account-totp">
      <Stack gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={2} size="h4" id="account-totp">
            {t('account.account.totp.title')}
          </Title>
          {me.data && (
            <Badge
              variant="light"
              color={on ? 'teal' : 'gray'}
              leftSection={on ? <IconShieldCheck size={12} aria-hidden /> : <IconShieldOff size={12} aria-hidden />}
              styles={{ label: { textTransform: 'none' } }}
            >
              {on ? t('account.account.totp.on') : t('account.account.totp.off')}
            </Badge>
          )}
        </Group>
        <ErrorDisplay error={me.error} />
        {me.data && <Text size="sm">{on ? t('account.account.totp.onHelp') : t('account.account.totp.offHelp')}</Text>}
        {me.data && on && <DisableForm onDone={() => void refresh(t('account.account.totp.disabled'))} />}
        {me.data && !on && setup && (
          <EnableForm setup={setup} onDone={() => void refresh(t('account.account.totp.enabled'))} onCancel={() => setSetup(null)} />
        )}
        {me.data && !on && !setup && (
          <>
            <ErrorDisplay error={start.error} />
            <Button onClick={() => start.mutate()} loading={start.isPending} style={{ alignSelf: 'flex-start' }}>
              {t('account.account.totp.start')}
            </Button>
          </>
        )}
      </Stack>
    </Paper>
  );
}
