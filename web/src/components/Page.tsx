/** A page's frame: its title (the document title too), actions on the right, and the content. */
import { Group, Stack, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Title order={1} size="h2">
          {title}
        </Title>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {children}
    </Stack>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Stack align="center" py="xl" c="dimmed" ta="center" gap="xs">
      {children}
    </Stack>
  );
}
