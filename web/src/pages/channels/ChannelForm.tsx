/**
 * Add or edit a channel. The type's fields come from its schema; on edit the type is fixed, a
 * secret left blank keeps the stored one (its "set" state is shown, and it can be revealed with
 * the password), and events and tags are chosen from the known lists.
 */
import { Button, Checkbox, Group, Modal, NumberInput, PasswordInput, Select, SimpleGrid, Stack, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type Channel, type ChannelType, type ChannelTypeInfo, channelQueries, channelsApi } from '../../api/resources/channels';
import { tagQueries } from '../../api/resources/tags';
import { applyFieldErrors, ErrorDisplay } from '../../components/ErrorDisplay';
import { RevealSecret } from '../../components/RevealSecret';
import { configPatch, type FieldSpec, type FieldValue, fieldsOf, initialValues } from './channel-fields';

interface Values {
  type: ChannelType;
  name: string;
  enabled: boolean;
  events: string[];
  tags: string[];
  config: Record<string, FieldValue>;
}

export function ChannelForm({ channel, types, events, onClose }: { channel: Channel | null; types: ChannelTypeInfo[]; events: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const tags = useQuery(tagQueries.list());
  const editing = channel !== null;
  const startType = channel?.type ?? types[0].type;
  const fieldsFor = useMemo(() => new Map(types.map((x) => [x.type, fieldsOf(x)])), [types]);
  const form = useForm<Values>({
    initialValues: {
      type: startType,
      name: channel?.name ?? '',
      enabled: channel?.enabled ?? true,
      events: channel?.events ?? [],
      tags: channel?.tags ?? [],
      config: initialValues(fieldsFor.get(startType) ?? [], channel?.config),
    },
  });
  const fields = fieldsFor.get(form.values.type) ?? [];
  const label = (name: string) => t(`channels.fields.${name}` as 'channels.title', { defaultValue: name });

  const save = useMutation({
    mutationFn: (v: Values) => {
      const config = configPatch(fields, v.config, editing);
      const common = { name: v.name, enabled: v.enabled, events: v.events, tags: v.tags, config };
      return channel ? channelsApi.update(channel.id, common) : channelsApi.create({ type: v.type, ...common });
    },
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('channels.saved') });
      await client.invalidateQueries({ queryKey: channelQueries.all });
      onClose();
    },
    onError: (err) => applyFieldErrors(form, err),
  });

  const input = (f: FieldSpec) => {
    const props = { label: label(f.name), required: f.required && !(editing && f.kind === 'password'), ...form.getInputProps(`config.${f.name}`) };
    switch (f.kind) {
      case 'password': {
        const removed = form.values.config[f.name] === null;
        const set = (channel?.secrets_set.includes(f.name) ?? false) && !removed;
        return (
          <Stack key={f.name} gap={6}>
            <PasswordInput
              {...props}
              value={removed ? '' : String(form.values.config[f.name] ?? '')}
              required={f.required && !set}
              description={editing ? t(set ? 'channels.secretSet' : 'channels.secretUnset') : undefined}
              autoComplete="new-password"
            />
            {set && channel && (
              <Group gap="xs">
                <RevealSecret
                  name={label(f.name)}
                  reveal={async (pw) => ({ value: String((await channelsApi.reveal(channel.id, pw)).secrets[f.name] ?? '') })}
                />
                {!f.required && (
                  <Button variant="subtle" color="red" size="sm" onClick={() => form.setFieldValue(`config.${f.name}`, null)}>
                    {t('channels.removeSecret', { name: label(f.name) })}
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        );
      }
      case 'select':
        return (
          <Select
            key={f.name}
            {...props}
            data={(f.options ?? []).map((o) => ({ value: o, label: t(`channels.options.${o}` as 'channels.title', { defaultValue: o }) }))}
            allowDeselect={!f.required}
            clearable={!f.required}
          />
        );
      case 'number':
        return <NumberInput key={f.name} {...props} allowDecimal={false} allowNegative={false} hideControls />;
      case 'list':
        return <TagsInput key={f.name} {...props} description={t('channels.listHelp')} splitChars={[',', ' ']} clearable />;
      case 'headers':
        return <Textarea key={f.name} {...props} description={t('channels.headersHelp')} autosize minRows={2} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} spellCheck={false} />;
      case 'textarea':
        return <Textarea key={f.name} {...props} autosize minRows={3} maxRows={10} spellCheck={false} />;
      default:
        return <TextInput key={f.name} {...props} autoComplete="off" spellCheck={false} />;
    }
  };

  return (
    <Modal opened onClose={onClose} title={channel ? t('channels.edit', { name: channel.name }) : t('channels.add')} centered size="lg">
      <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
        <Stack>
          <ErrorDisplay error={save.error} />
          <Select
            label={t('channels.type')}
            data={types.map((x) => ({ value: x.type, label: t(`channels.types.${x.type}`) }))}
            value={form.values.type}
            disabled={editing}
            allowDeselect={false}
            searchable
            onChange={(v) => {
              if (!v) return;
              form.setFieldValue('type', v as ChannelType);
              form.setFieldValue('config', initialValues(fieldsFor.get(v as ChannelType) ?? [], undefined));
            }}
          />
          <TextInput label={t('channels.name')} required maxLength={100} data-autofocus {...form.getInputProps('name')} />
          <Switch label={t('channels.enabled')} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          {fields.map(input)}
          <Checkbox.Group label={t('channels.events')} description={t('channels.eventsHelp')} {...form.getInputProps('events')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={8} mt={8}>
              {events.map((e) => (
                <Checkbox key={e} value={e} label={t(`channels.eventNames.${e}` as 'channels.title', { defaultValue: e })} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <TagsInput label={t('channels.tags')} description={t('channels.tagsHelp')} data={(tags.data ?? []).map((x) => x.tag)} clearable {...form.getInputProps('tags')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
