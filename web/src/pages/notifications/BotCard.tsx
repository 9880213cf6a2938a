/**
 * One messenger bot: its token (masked, revealed with the password), its chat id (typed, or picked
 * from the chats the bot has seen), and a test message through it.
 */
import { Button, Card, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconSearch, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BotKind, type Chat, notificationQueries, notificationsApi } from '../../api/resources/notifications';
import { type SettingDescriptor, settingsApi, settingsQueries } from '../../api/resources/settings';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { errorText } from '../../i18n/error-text';
import { SettingField, type StoredSetting } from '../settings/SettingField';
import { REVEALERS } from '../settings/revealers';

const KEYS: Record<BotKind, { token: string; chat: string }> = {
  default: { token: 'messenger_bot_token', chat: 'messenger_chat_id' },
  offline: { token: 'messenger_offline_bot_token', chat: 'messenger_offline_chat_id' },
};

const TYPES = ['private', 'group', 'supergroup', 'channel'];

export function BotCard({ kind, describe, stored }: { kind: BotKind; describe: (key: string) => SettingDescriptor | undefined; stored: (key: string) => StoredSetting | undefined }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const keys = KEYS[kind];
  const token = describe(keys.token);
  const chat = describe(keys.chat);
  const chats = useQuery(notificationQueries.chats(kind));
  const [picked, setPicked] = useState<string | null>(null);

  const useChat = useMutation({
    mutationFn: (id: string) => settingsApi.put(keys.chat, id),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('notifications.chatUsed') });
      return client.invalidateQueries({ queryKey: settingsQueries.all });
    },
  });
  const test = useMutation({
    mutationFn: () => notificationsApi.test(kind),
    onSuccess: () => notifications.show({ color: 'teal', message: t('notifications.testSent') }),
  });

  const chatLabel = (c: Chat) => {
    const type = t(`notifications.chatTypes.${TYPES.includes(c.type) ? c.type : 'other'}` as 'notifications.title');
    const name = c.title || (c.username ? `@${c.username}` : String(c.id));
    return `${name} · ${type} · ${c.id}`;
  };
  const headingId = `bot-${kind}`;

  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id={headingId}>
            {t(`notifications.bots.${kind}`)}
          </Title>
          <Text size="sm" c="dimmed">
            {t(kind === 'offline' ? 'notifications.bots.offlineHelp' : 'notifications.bots.defaultHelp')}
          </Text>
        </div>
        {token && <SettingField d={token} stored={stored(keys.token)} reveal={REVEALERS[keys.token]} />}
        {chat && <SettingField d={chat} stored={stored(keys.chat)} />}

        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t('notifications.findChatsHelp')}
          </Text>
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconSearch size={16} aria-hidden />}
              loading={chats.isFetching}
              disabled={stored(keys.token)?.value_set !== true}
              onClick={() => {
                setPicked(null);
                void chats.refetch();
              }}
            >
              {t('notifications.findChats')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconSend size={16} aria-hidden />}
              loading={test.isPending}
              disabled={stored(keys.token)?.value_set !== true}
              onClick={() => test.mutate()}
            >
              {t('notifications.sendTest')}
            </Button>
          </Group>
          {test.error && <ErrorDisplay error={test.error} />}
          {chats.error && !chats.isFetching && <ErrorDisplay error={chats.error} />}
          {chats.data && !chats.isFetching && (
            <Stack gap="xs" aria-live="polite">
              <Text size="sm">{t('notifications.chatsFound', { count: chats.data.count })}</Text>
              {chats.data.count === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('notifications.noChats')}
                </Text>
              ) : (
                <Stack gap="xs">
                  <Radio.Group
                    label={t('notifications.pickChat')}
                    value={picked}
                    onChange={setPicked}
                    error={useChat.error ? errorText(useChat.error, t) : undefined}
                  >
                    <Stack gap={6} mt={4}>
                      {chats.data.chats.map((c) => (
                        <Radio key={String(c.id)} value={String(c.id)} label={chatLabel(c)} styles={{ label: { wordBreak: 'break-word' } }} />
                      ))}
                    </Stack>
                  </Radio.Group>
                  <Group>
                    <Button disabled={picked === null} loading={useChat.isPending} onClick={() => picked && useChat.mutate(picked)}>
                      {t('notifications.useChat')}
                    </Button>
                  </Group>
                </Stack>
              )}
            </Stack>
          )}
        </Stack>
      </Stack>
    </Card>
  );
}
