/** One push batch by URL (/history/<batch id>): live while it runs, with its follow-up actions. */
import { Anchor } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { BatchLive } from '../../components/batch/BatchLive';
import { Page } from '../../components/Page';

export default function BatchPage() {
  const { t } = useTranslation();
  const { batchId = '' } = useParams();
  const navigate = useNavigate();
  return (
    <Page
      title={t('history.batchTitle', { id: batchId })}
      actions={
        <Anchor component={Link} to="/history" size="sm">
          <IconArrowLeft size={14} aria-hidden /> {t('history.back')}
        </Anchor>
      }
    >
      <BatchLive key={batchId} batchId={batchId} onNewBatch={(id) => navigate(`/history/${encodeURIComponent(id)}`)} />
    </Page>
  );
}
