/** An area this release does not have yet: says so, and where its API is. Nothing pretends to work. */
import { Anchor, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { NAV_ITEMS } from '../../app/nav';
import { Page } from '../../components/Page';

export default function PlaceholderPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const item = NAV_ITEMS.find((p) => p.path !== '/' && pathname.startsWith(p.path));
  const title = item ? t(`nav.${item.key}`) : pathname;
  return (
    <Page title={title}>
      <Paper withBorder p="lg" radius="md">
        <Text mb="sm">{t('placeholder.body')}</Text>
        <Anchor href="/docs" target="_blank" rel="noopener">
          {t('common.openDocs')}
        </Anchor>
      </Paper>
    </Page>
  );
}
