/**
 * Credentials: password presets and SSH key presets. A secret is revealed only after the admin's
 * own password and hidden again after 30 s; each preset says how many servers use it and lists
 * them. The tab is in the URL (`/credentials/ssh-keys`), so a link opens the right list.
 */
import { Button, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconKey, IconLock, IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { credentialQueries, credentialsApi, type PresetKind } from '../../api/resources/credentials';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { EmptyState, Page } from '../../components/Page';
import { errorText } from '../../i18n/error-text';
import { PresetForm, type PresetEdit } from './PresetForm';
import { PresetList, type PresetRow } from './PresetList';
import { PresetServers, type ServersTarget } from './PresetServers';
import { RevealDialog, type RevealTarget } from './RevealDialog';

const TAB_PATH: Record<PresetKind, string> = { password: '/credentials', ssh_key: '/credentials/ssh-keys' };

function Loading() {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" role="status" aria-busy="true" aria-label={t('common.loading')}>
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} height={64} />
      ))}
    </Stack>
  );
}

export default function CredentialsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const kind: PresetKind = pathname.startsWith('/credentials/ssh-keys') ? 'ssh_key' : 'password';
  const client = useQueryClient();

  const passwords = useQuery(credentialQueries.passwordPresets());
  const keys = useQuery(credentialQueries.sshKeyPresets());
  const usageQuery = useQuery(credentialQueries.usage());
  const usage = useMemo(() => {
    const list = kind === 'password' ? usageQuery.data?.password_presets : usageQuery.data?.ssh_key_presets;
    return new Map((list ?? []).map((u) => [u.preset_id, u.servers]));
  }, [usageQuery.data, kind]);

  const [editing, setEditing] = useState<PresetEdit | null>(null);
  const [revealing, setRevealing] = useState<RevealTarget | null>(null);
  const [showing, setShowing] = useState<ServersTarget | null>(null);
  const [deleting, setDeleting] = useState<(PresetRow & { kind: PresetKind }) | null>(null);

  const remove = useMutation({
    mutationFn: (p: { kind: PresetKind; id: number }) => (p.kind === 'password' ? credentialsApi.removePassword(p.id) : credentialsApi.removeSshKey(p.id)),
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('credentials.deleted') });
      setDeleting(null);
      await client.invalidateQueries({ queryKey: credentialQueries.all });
    },
    onError: (err) => notifications.show({ color: 'red', title: t('errors.title'), message: errorText(err, t) }),
  });

  const list = kind === 'password' ? passwords : keys;
  const rows: PresetRow[] | undefined = list.data;
  const add = () => setEditing({ kind });
  const addLabel = t(kind === 'password' ? 'credentials.addPassword' : 'credentials.addSshKey');
  const deleteCount = deleting ? (usage.get(deleting.id) ?? 0) : 0;

  return (
    <Page
      title={t('credentials.title')}
      actions={
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={add}>
          {addLabel}
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        {t('credentials.intro')}
      </Text>
      <Tabs value={kind} onChange={(v) => v && void navigate(TAB_PATH[v as PresetKind])} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="password" leftSection={<IconLock size={16} aria-hidden />}>
            {t('credentials.tabs.password')}
          </Tabs.Tab>
          <Tabs.Tab value="ssh_key" leftSection={<IconKey size={16} aria-hidden />}>
            {t('credentials.tabs.sshKey')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value={kind} pt="md">
          {list.error && <ErrorDisplay error={list.error} onRetry={() => void list.refetch()} />}
          {list.isPending ? (
            <Loading />
          ) : rows && rows.length > 0 ? (
            <PresetList
              kind={kind}
              rows={rows}
              usage={usage}
              onReveal={(p) => setRevealing({ kind, id: p.id, name: p.name })}
              onEdit={(p) => setEditing({ kind, id: p.id, name: p.name, username: p.username, public_key: p.public_key })}
              onDelete={(p) => {
                remove.reset();
                setDeleting({ ...p, kind });
              }}
              onServers={(p) => setShowing({ kind, id: p.id, name: p.name })}
            />
          ) : (
            rows && (
              <EmptyState>
                {kind === 'password' ? <IconLock size={32} aria-hidden /> : <IconKey size={32} aria-hidden />}
                <Text>{t(kind === 'password' ? 'credentials.emptyPassword' : 'credentials.emptySshKey')}</Text>
                <Button variant="light" leftSection={<IconPlus size={16} />} onClick={add}>
                  {addLabel}
                </Button>
              </EmptyState>
            )
          )}
        </Tabs.Panel>
      </Tabs>
      {editing && <PresetForm key={`${editing.kind}-${editing.id ?? 'new'}`} edit={editing} onClose={() => setEditing(null)} />}
      <RevealDialog target={revealing} onClose={() => setRevealing(null)} />
      <PresetServers target={showing} onClose={() => setShowing(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? t('credentials.deleteTitle', { name: deleting.name }) : ''}
        message={
          deleting
            ? deleteCount > 0
              ? t('credentials.deleteMessage', { name: deleting.name, count: deleteCount })
              : t('credentials.deleteUnused', { name: deleting.name })
            : ''
        }
        word={deleting && deleteCount > 0 ? deleting.name : undefined}
        confirmLabel={deleting ? t('credentials.deleteNamed', { name: deleting.name }) : ''}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ kind: deleting.kind, id: deleting.id })}
        onClose={() => setDeleting(null)}
      />
    </Page>
  );
}
