/**
 * Scripts: the editor (saved scripts, CodeMirror, run on servers chosen like the push flow), the
 * run history, and one run's live output. Sub-routes keep each view's URL: `/scripts?script=<id>`,
 * `/scripts/runs?status=…&from=…&to=…&page=…`, `/scripts/runs/<run_id>`.
 */
import { Tabs } from '@mantine/core';
import { IconCode, IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { Page } from '../../components/Page';
import { EditorView } from './EditorView';
import { RunView } from './RunView';
import { RunsHistory } from './RunsHistory';

export default function ScriptsPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const onRun = /\/scripts\/runs\/[^/]+/.test(location.pathname);
  const tab = location.pathname.startsWith('/scripts/runs') && !onRun ? 'history' : 'editor';
  return (
    <Page title={t('scripts.title')}>
      {!onRun && (
        <Tabs value={tab} onChange={(v) => navigate(v === 'history' ? '/scripts/runs' : '/scripts')} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="editor" leftSection={<IconCode size={16} aria-hidden />} mih={40}>
              {t('scripts.tabEditor')}
            </Tabs.Tab>
            <Tabs.Tab value="history" leftSection={<IconHistory size={16} aria-hidden />} mih={40}>
              {t('scripts.tabHistory')}
            </Tabs.Tab>
          </Tabs.List>
        </Tabs>
      )}
      <Routes>
        <Route index element={<EditorView />} />
        <Route path="runs" element={<RunsHistory />} />
        <Route path="runs/:runId" element={<RunView />} />
        <Route path="*" element={<EditorView />} />
      </Routes>
    </Page>
  );
}
