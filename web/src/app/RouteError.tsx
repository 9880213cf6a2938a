/**
 * What a route shows when its page cannot be loaded (its chunk or its data failed): a message and
 * Retry inside the shell, so the navigation stays usable; never React Router's developer page.
 * After an upgrade the old page's chunks are gone: when the service serves another build, the
 * page reloads once by itself.
 *
 * Retry loads the page afresh once the service answers: React Router keeps a failed `lazy()`
 * import for the life of the document, so only a new document imports the chunk again. While the
 * service is still down, Retry says so and keeps the shell.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { errorText } from '../i18n/error-text';
import { isChunkLoadError, servedBuild, shouldReloadFor } from './build-version';

export interface RouteErrorProps {
  /** Reloads the document (a prop so tests can watch it). */
  reload?: () => void;
  fetchImpl?: typeof fetch;
}

export function RouteError({ reload = () => window.location.reload(), fetchImpl }: RouteErrorProps) {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const [stillDown, setStillDown] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!chunk) return;
    let live = true;
    void servedBuild(fetchImpl).then((served) => {
      if (live && shouldReloadFor(served)) reload();
    });
    return () => {
      live = false;
    };
  }, [chunk, fetchImpl, reload]);

  const retry = async () => {
    setBusy(true);
    // The service must answer before a reload: a reload while it is down would lose the shell.
    const res = await (fetchImpl ?? fetch)('/', { cache: 'no-store' }).catch(() => null);
    setBusy(false);
    if (res?.ok) reload();
    else setStillDown(true);
  };

  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title={t('errors.pageLoad')} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{chunk ? t('errors.pageLoadHelp') : errorText(error, t)}</Text>
        {stillDown && <Text size="sm">{t('errors.network')}</Text>}
        <Group>
          <Button size="xs" variant="light" onClick={() => void retry()} loading={busy}>
            {t('common.retry')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
