/**
 * The monitoring agent's one-liner for a server. The install script (GET /api/agent/install.sh,
 * src/modules/agent/agent-script.ts) copies itself from "$0" when installing, so it must run
 * from a file, not from a pipe: the command downloads it to a temporary file first. The token
 * travels in FLEET_AGENT_TOKEN, never as an argument (arguments are visible in `ps`).
 */
import { Button, Stack, Text, Title } from '@mantine/core';
import { IconTerminal2 } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { servers } from '../../api/endpoints';
import { CopyText } from '../../components/CopyText';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { useTouchSize } from './useTouchSize';

/** Single-quoted for sh, so an origin or token can never be read as shell syntax. */
function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function installCommand(origin: string, token: string): string {
  return (
    `f=$(mktemp) && curl -fsSL ${shq(`${origin}/api/agent/install.sh`)} -o "$f" && ` +
    `FLEET_AGENT_TOKEN=${shq(token)} sh "$f" --url ${shq(origin)} --install; rm -f "$f"`
  );
}

export function AgentInstall({ serverId }: { serverId: number }) {
  const { t } = useTranslation();
  const size = useTouchSize();
  const gen = useMutation({ mutationFn: () => servers.agentToken(serverId) });
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('servers.agent')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('servers.agentHelp')}
      </Text>
      <Button
        size={size}
        variant="light"
        leftSection={<IconTerminal2 size={16} />}
        onClick={() => gen.mutate()}
        loading={gen.isPending}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('servers.agentGenerate')}
      </Button>
      <ErrorDisplay error={gen.error} />
      {gen.data && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t('servers.agentCommand')}
          </Text>
          <CopyText value={installCommand(window.location.origin, gen.data.agent_token)} label={t('servers.agentCommand')} breakAll />
          <Text size="xs" c="orange">
            {t('servers.agentTokenOnce')}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
