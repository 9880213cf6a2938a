/**
 * One setting, saved on its own: the input its rule asks for (switch, choice, number, text, secret),
 * checked in the browser by the rule the service serves, and the service's answer under it.
 */
import { Badge, Button, Group, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconLock } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SettingDescriptor, settingsApi, settingsQueries } from '../../api/resources/settings';
import { CopyText } from '../../components/CopyText';
import { RevealSecret } from '../../components/RevealSecret';
import { errorText } from '../../i18n/error-text';
import { checkSettingValue, isSwitch, switchValue } from './validate-setting';

export interface StoredSetting {
  value: string | null;
  value_set: boolean | null;
}

export type Revealer = (password: string) => Promise<{ value: string }>;

interface Props {
  d: SettingDescriptor;
  stored: StoredSetting | undefined;
  /** How to reveal this key's secret, when it can be revealed. */
  reveal?: Revealer;
}

/** A key's label; unknown keys (a newer service) show the key itself. */
export function useSettingLabel() {
  const { t, i18n } = useTranslation();
  return (key: string) => (i18n.exists(`settings.keys.${key}`) ? t(`settings.keys.${key}` as 'settings.title') : key);
}

function useSave(key: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (value: string) => settingsApi.put(key, value),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsQueries.all }),
  });
}

export function SettingField({ d, stored, reveal }: Props) {
  if (d.immutable) return <FixedField d={d} stored={stored} reveal={reveal} />;
  if (isSwitch(d)) return <SwitchField d={d} stored={stored} />;
  if (d.secret) return <SecretField d={d} stored={stored} reveal={reveal} />;
  return <ValueField d={d} stored={stored} />;
}

function Limited({ d }: { d: SettingDescriptor }) {
  const { t } = useTranslation();
  if (d.api_key_may_change || d.immutable) return null;
  return (
    <Text size="xs" c="dimmed">
      {t('settings.apiKeyLimited')}
    </Text>
  );
}

function Answer({ error, saved }: { error: unknown; saved: boolean }) {
  const { t } = useTranslation();
  if (error) return null; // shown as the input's error
  if (!saved) return null;
  return (
    <Text size="xs" role="status" style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
      <IconCheck size={14} color="var(--mantine-color-teal-filled)" aria-hidden />
      {t('settings.saved')}
    </Text>
  );
}

function SwitchField({ d, stored }: Props) {
  const { t } = useTranslation();
  const label = useSettingLabel()(d.key);
  const save = useSave(d.key);
  // The value being written (and just written, until the refetched list catches up) shows at once.
  const on = (save.isPending || save.isSuccess) && save.variables !== undefined ? save.variables === 'true' : switchValue(d, stored?.value);
  return (
    <Stack gap={4}>
      <Switch
        label={label}
        checked={on}
        disabled={save.isPending}
        onChange={(e) => save.mutate(e.currentTarget.checked ? 'true' : 'false')}
        error={save.error ? errorText(save.error, t) : undefined}
      />
      <Answer error={save.error} saved={save.isSuccess} />
      <Limited d={d} />
    </Stack>
  );
}

function ValueField({ d, stored }: Props) {
  const { t } = useTranslation();
  const label = useSettingLabel()(d.key);
  const current = stored?.value ?? d.default ?? '';
  const [draft, setDraft] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const save = useSave(d.key);
  const value = draft ?? current;
  const problem = touched ? checkSettingValue(d, value) : null;
  const problemText = problem ? t(`settings.problems.${problem.key}`, problem.values ?? {}) : undefined;
  const error = problemText ?? (save.error ? errorText(save.error, t) : undefined);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (checkSettingValue(d, value)) return; // refused here; never sent
    save.mutate(value, { onSuccess: () => setDraft(null) });
  };
  const change = (v: string) => {
    setDraft(v);
    setTouched(true);
    save.reset();
  };
  const description = d.default !== null ? t('settings.defaultValue', { value: valueLabel(t, d.default) }) : undefined;

  let input: React.ReactNode;
  if (d.schema.enum) {
    input = (
      <Select
        label={label}
        description={description}
        data={d.schema.enum.map((v) => ({ value: v, label: valueLabel(t, v) }))}
        value={value}
        onChange={(v) => v !== null && change(v)}
        allowDeselect={false}
        error={error}
        style={{ flex: 1, minWidth: 0 }}
      />
    );
  } else {
    input = (
      <TextInput
        label={label}
        description={description}
        value={value}
        inputMode={d.schema.type === 'integer' ? 'numeric' : undefined}
        onChange={(e) => change(e.currentTarget.value)}
        error={error}
        style={{ flex: 1, minWidth: 0 }}
        placeholder={current === '' ? t('settings.notSet') : undefined}
      />
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap={4}>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          {input}
          <Button type="submit" variant="light" mt={description ? 42 : 24} loading={save.isPending} disabled={draft === null || draft === current} aria-label={t('settings.saveField', { name: label })}>
            {t('common.save')}
          </Button>
        </Group>
        <Answer error={error} saved={save.isSuccess && draft === null} />
        <Limited d={d} />
      </Stack>
    </form>
  );
}

function SecretField({ d, stored, reveal }: Props) {
  const { t } = useTranslation();
  const label = useSettingLabel()(d.key);
  const [draft, setDraft] = useState('');
  const save = useSave(d.key);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (draft.trim() === '') return;
    save.mutate(draft, { onSuccess: () => setDraft('') });
  };
  return (
    <Stack gap={6}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <SecretBadge set={stored?.value_set === true} />
      </Group>
      {stored?.value_set && reveal && <RevealSecret name={label} reveal={reveal} />}
      <form onSubmit={submit} noValidate>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <PasswordInput
            label={t('settings.newSecret', { name: label })}
            description={t('settings.newSecretHint')}
            value={draft}
            onChange={(e) => {
              setDraft(e.currentTarget.value);
              save.reset();
            }}
            error={save.error ? errorText(save.error, t) : undefined}
            autoComplete="off"
            style={{ flex: 1, minWidth: 0 }}
          />
          <Button type="submit" variant="light" mt={42} loading={save.isPending} disabled={draft.trim() === ''} aria-label={t('settings.saveField', { name: label })}>
            {t('common.save')}
          </Button>
        </Group>
      </form>
      <Answer error={save.error} saved={save.isSuccess} />
    </Stack>
  );
}

function SecretBadge({ set }: { set: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={set ? 'teal' : 'gray'} leftSection={<IconLock size={12} aria-hidden />}>
      {set ? t('settings.secretSet') : t('settings.secretNotSet')}
    </Badge>
  );
}

function FixedField({ d, stored, reveal }: Props) {
  const { t } = useTranslation();
  const label = useSettingLabel()(d.key);
  return (
    <Stack gap={6}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        {d.secret && <SecretBadge set={stored?.value_set === true} />}
      </Group>
      {!d.secret && stored?.value ? <CopyText value={stored.value} label={label} breakAll /> : null}
      {d.secret && stored?.value_set && reveal && <RevealSecret name={label} reveal={reveal} />}
      <Text size="xs" c="dimmed">
        {t('settings.fixed')}
      </Text>
    </Stack>
  );
}

// biome-ignore lint/suspicious/noExplicitAny: i18next's t
export function valueLabel(t: any, v: string): string {
  return t(`settings.values.${v}`, { defaultValue: v });
}
