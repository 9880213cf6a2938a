/**
 * The one way errors are shown: a refusal in the operator's language by its code (the API's
 * English `detail` only for a code the console does not know), a 422's field errors next to the
 * fields they name (see `applyFieldErrors`), network trouble as a banner with a retry.
 */
import { Alert, Button, Group } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconAlertCircle, IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError, NetworkError } from '../api/errors';
import { errorText } from '../i18n/error-text';

export function ErrorDisplay({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  if (error instanceof NetworkError) {
    return (
      <Alert color="orange" icon={<IconPlugConnectedX size={18} />} title={t('errors.title')} role="alert">
        <Group justify="space-between" wrap="nowrap">
          <span>{t('errors.network')}</span>
          {onRetry && (
            <Button size="xs" variant="light" onClick={onRetry}>
              {t('errors.tryAgain')}
            </Button>
          )}
        </Group>
      </Alert>
    );
  }
  const detail = errorText(error, t);
  // Only errors that name a body field are shown next to a field; others stay in the detail.
  const fields = error instanceof ApiError && Object.keys(error.fieldErrors()).length > 0;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title={title ?? t('errors.title')} role="alert">
      {detail}
      {fields && <div>{t('errors.fieldsBelow')}</div>}
    </Alert>
  );
}

/** Puts a 422's per-field messages on the form fields they name; true when any was placed. */
// biome-ignore lint/suspicious/noExplicitAny: any form's values
export function applyFieldErrors(form: UseFormReturnType<any>, error: unknown): boolean {
  if (!(error instanceof ApiError) || error.errors.length === 0) return false;
  const byField = error.fieldErrors();
  form.setErrors(byField);
  return Object.keys(byField).length > 0;
}
