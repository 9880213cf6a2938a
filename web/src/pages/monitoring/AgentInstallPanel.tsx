/**
 * Installing the agent from the monitoring page: pick a server, then either generate a token and
 * the one-liner to paste on it (the servers page's AgentInstall, reused), or let the service
 * install it over SSH. The SSH install is one request of up to 60 s: while it runs the button
 * stays busy and the elapsed time counts up; then its result (method, directory, URL) or the
 * service's refusal is shown.
 */
import { Alert, Button, Card, Divider, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck, IconPlugConnected } from '@tabler/icons-react';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monitoringApi, monitoringQueries } from '../../api/resources/monitoring';
import { serverQueries } from '../../api/resources/servers';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { AgentInstall } from '../servers/AgentInstall';

function useElapsed(running: boolean): number {
  const [start, setStart] = useState<number | null>(null);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) {
      setStart(null);
      return;
    }
    setStart(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [running]);
  return start === null ? 0 : Math.max(0, Math.round((now - start) / 1000));
}

/** The server an install is for: its id and the name the messages show. */
type InstallTarget = { id: number; name: string };

function SshInstall({ server }: { server: InstallTarget }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const install = useMutation({
    mutationFn: () => monitoringApi.installAgent(server.id, url.trim() || undefined),
    onSuccess: () => void client.invalidateQueries({ queryKey: monitoringQueries.all }),
  });
  const seconds = useElapsed(install.isPending);
  const methodKey = install.data?.method;
  const method = methodKey && ['systemd', 'cron', 'background'].includes(methodKey) ? t(`monitoring.install.method.${methodKey}`) : methodKey;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('monitoring.install.overSsh')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('monitoring.install.overSshHelp')}
      </Text>
      <TextInput
        label={t('monitoring.install.apiBaseUrl')}
        description={t('monitoring.install.apiBaseUrlHelp')}
        placeholder={window.location.origin}
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
        inputMode="url"
      />
      <Button leftSection={<IconPlugConnected size={16} aria-hidden />} onClick={() => install.mutate()} loading={install.isPending} style={{ alignSelf: 'flex-start' }} mih={40}>
        {t('monitoring.install.run', { name: server.name })}
      </Button>
      <div aria-live="polite">
        {install.isPending && (
          <Text size="sm" role="status">
            {t('monitoring.install.running', { name: server.name, seconds })}
          </Text>
        )}
        {install.data && (
          <Alert color="teal" icon={<IconCircleCheck size={18} aria-hidden />}>
            {t('monitoring.install.done', { name: server.name, method, dir: install.data.install_dir, url: install.data.api_base_url })}
          </Alert>
        )}
      </div>
      <ErrorDisplay error={install.error} />
    </Stack>
  );
}

export function AgentInstallPanel({ selected, onSelect }: { selected: number | null; onSelect: (id: number | null) => void }) {
  const { t } = useTranslation();
  // Servers are searched on the service (a fleet can be 10,000): 100 matches at a time.
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const list = useQuery(serverQueries.search({ q: debounced || undefined, sort: 'name', order: 'asc', limit: 100 }));
  // The chosen server (also when chosen from the table) is named even when the search no longer lists it.
  const chosen = useQuery({ ...serverQueries.one(selected ?? 0), enabled: selected !== null });
  const server = selected !== null && chosen.data?.id === selected ? { id: chosen.data.id, name: chosen.data.name } : null;
  const options = (list.data?.items ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (${s.host})` }));
  if (chosen.data && selected === chosen.data.id && !options.some((o) => o.value === String(selected))) {
    options.unshift({ value: String(chosen.data.id), label: `${chosen.data.name} (${chosen.data.host})` });
  }
  return (
    <Card withBorder radius="md" id="install">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('monitoring.install.heading')}
        </Title>
        <Select
          label={t('monitoring.install.server')}
          placeholder={t('monitoring.install.pick')}
          data={options}
          value={server ? String(server.id) : null}
          onChange={(v) => onSelect(v ? Number(v) : null)}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          // The service already filtered by the search.
          filter={({ options: all }) => all}
          nothingFoundMessage={t('monitoring.noMatch')}
          // The page scrolls as a whole, so the list moves with its field anyway. Mantine's default
          // hides the list whenever the field is out of view; at the end of a phone-width page the
          // list opens above the field, and scrolling to an option hid the list it was in.
          comboboxProps={{ hideDetached: false }}
          w={{ base: '100%', sm: 360 }}
        />
        <ErrorDisplay error={list.error ?? chosen.error} />
        {server && (
          <>
            {/* Keyed by server: a token shown for one server never stays on screen for another. */}
            <AgentInstall key={server.id} serverId={server.id} />
            <Divider />
            <SshInstall key={`ssh-${server.id}`} server={server} />
          </>
        )}
      </Stack>
    </Card>
  );
}
