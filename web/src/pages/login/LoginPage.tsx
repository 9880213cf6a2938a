/**
 * Sign in: username and password, then a TOTP step when the admin has one, over the day's
 * wallpaper. Each refusal says what happened: wrong credentials, a lockout (with how long),
 * an address outside the allowlist. Afterwards the user lands where they were going.
 */
import { Alert, Box, Button, Center, Code, Group, Paper, PasswordInput, PinInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconInfoCircle, IconKey, IconLock } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { auth, publicInfo } from '../../api/endpoints';
import { ApiError, NetworkError } from '../../api/errors';
import { errorText } from '../../i18n/error-text';
import { saveSession, sessionFrom } from '../../api/session';
import { safeNext, useSignedIn } from '../../app/auth';
import { ColorSchemeToggle, LanguageMenu } from '../../app/HeaderControls';

/** What to tell the user about a refused login. */
export function loginMessage(err: unknown, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (err instanceof NetworkError) return t('errors.network');
  if (!(err instanceof ApiError)) return String((err as Error)?.message ?? err);
  if (err.status === 429) return t('login.locked', { seconds: err.retryAfter ?? 60 });
  if (err.code === 'ip_blocked') return t('login.ipBlocked');
  if (err.code === 'totp_invalid') return t('login.totpInvalid');
  if (err.code === 'invalid_credentials') return t('login.wrong');
  return errorText(err, t);
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const signedIn = useSignedIn();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsTotp, setNeedsTotp] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const wallpaper = useQuery({ queryKey: ['wallpaper'], queryFn: publicInfo.dailyWallpaper, staleTime: 3_600_000, retry: false });
  // A fresh install names the file holding the generated password until its first login.
  const firstRun = useQuery({ queryKey: ['first-run'], queryFn: publicInfo.firstRun, staleTime: Number.POSITIVE_INFINITY, retry: false });
  const initialFile = firstRun.data?.initial_password_file ?? null;

  useEffect(() => {
    document.title = `${t('login.submit')} · ${t('app.name')}`;
  }, [t]);

  if (signedIn && !busy) return <Navigate to={next} replace />;

  const submit = async (e?: FormEvent, totp = code) => {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const pair = await auth.login({ username, password, ...(needsTotp ? { totp_code: totp } : {}) });
      saveSession(sessionFrom(pair));
      void navigate(next, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && err.code === 'totp_required') {
        setNeedsTotp(true);
      } else {
        setError(loginMessage(err, t));
        if (needsTotp) setCode('');
      }
    } finally {
      setBusy(false);
    }
  };

  const url = wallpaper.data?.url;
  return (
    <Box
      mih="100vh"
      style={{
        backgroundColor: 'var(--mantine-color-dark-7)',
        backgroundImage: url ? `url(${url})` : 'linear-gradient(135deg, var(--mantine-color-blue-9), var(--mantine-color-dark-8))',
        backgroundSize: 'cover',
        backgroundPosition: 'center',
      }}
    >
      <Group justify="flex-end" p="xs" gap={4}>
        <Paper radius="md" p={2} shadow="sm">
          <Group gap={0}>
            <LanguageMenu />
            <ColorSchemeToggle />
          </Group>
        </Paper>
      </Group>
      <Center mih="calc(100vh - 60px)" p="md" component="main">
        <Paper w="100%" maw={400} p="xl" radius="lg" shadow="xl" withBorder>
          <form onSubmit={(e) => void submit(e)}>
            <Stack>
              <Group gap="xs">
                <IconLock size={22} aria-hidden />
                <Title order={1} size="h3">
                  {needsTotp ? t('login.totpTitle') : t('login.title')}
                </Title>
              </Group>
              {params.get('reason') === 'expired' && !error && (
                <Alert color="blue" icon={<IconInfoCircle size={18} />}>
                  {t('login.sessionEnded')}
                </Alert>
              )}
              {initialFile && !needsTotp && (
                <Alert color="blue" icon={<IconKey size={18} />} title={t('login.firstRunTitle')}>
                  <Text size="sm">{t('login.firstRunBody')}</Text>
                  <Code block mt={6} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                    {initialFile}
                  </Code>
                </Alert>
              )}
              {error && (
                <Alert color="red" role="alert">
                  {error}
                </Alert>
              )}
              {!needsTotp ? (
                <>
                  <TextInput label={t('login.username')} autoComplete="username" required value={username} onChange={(e) => setUsername(e.currentTarget.value)} autoFocus />
                  <PasswordInput label={t('login.password')} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
                </>
              ) : (
                <Stack gap={6}>
                  <Text size="sm" id="totp-help">
                    {t('login.totpHelp')}
                  </Text>
                  <PinInput
                    length={6}
                    type="number"
                    oneTimeCode
                    autoFocus
                    value={code}
                    onChange={setCode}
                    onComplete={(v) => void submit(undefined, v)}
                    aria-label={t('login.totpCode')}
                    getInputProps={(i) => ({ 'aria-label': `${t('login.totpCode')} ${i + 1}`, 'aria-describedby': 'totp-help' })}
                  />
                </Stack>
              )}
              <Button type="submit" loading={busy} fullWidth size="md">
                {needsTotp ? t('login.verify') : t('login.submit')}
              </Button>
            </Stack>
          </form>
        </Paper>
      </Center>
      {url && (
        <Text size="xs" c="white" ta="right" px="sm" pb={4} style={{ textShadow: '0 1px 2px #000' }}>
          {t('login.wallpaper')}
        </Text>
      )}
    </Box>
  );
}
