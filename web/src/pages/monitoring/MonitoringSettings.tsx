/**
 * The monitoring settings, edited where their effect is seen: the alert thresholds, the offline
 * timeout and the notify_* switches (PUT /api/settings/{key}, one key at a time). Each field shows
 * the service's own answer under it: the stored value, or its refusal (a 400 for a value out of
 * range is shown as sent, not pre-empted, so the field says what the service says).
 */
import { Button, Card, Group, NumberInput, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monitoringApi, monitoringQueries, type SettingView } from '../../api/resources/monitoring';
import { errorText } from '../../i18n/error-text';

export const NUMBER_KEYS = [
  { key: 'cpu_alert_threshold', min: 1, max: 100, fallback: 90 },
  { key: 'mem_alert_threshold', min: 1, max: 100, fallback: 90 },
  { key: 'disk_alert_threshold', min: 1, max: 100, fallback: 90 },
  { key: 'heartbeat_timeout', min: 10, max: 600, fallback: 90 },
] as const;

export const NOTIFY_KEYS = [
  'notify_alert_cpu', 'notify_alert_mem', 'notify_alert_disk', 'notify_alert_offline', 'notify_recovery',
  'notify_time_drift', 'notify_system_cache', 'notify_system_db', 'notify_restart', 'notify_script_complete',
] as const;

const TRUE_WORDS = ['true', '1', 'yes', 'on'];

/** A stored value, or the service's default when the key has no row (switches default to on). */
export function settingValue(list: SettingView[] | undefined, key: string): string | null {
  return list?.find((s) => s.key === key)?.value ?? null;
}

export function isOn(v: string | null): boolean {
  return v === null || v.trim() === '' ? true : TRUE_WORDS.includes(v.trim().toLowerCase());
}

function NumberSetting({ def, stored }: { def: (typeof NUMBER_KEYS)[number]; stored: string | null }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const initial = stored !== null && stored.trim() !== '' ? Number(stored) : def.fallback;
  const [value, setValue] = useState<string | number>(initial);
  const save = useMutation({
    mutationFn: () => monitoringApi.putSetting(def.key, String(value)),
    onSuccess: () => void client.invalidateQueries({ queryKey: monitoringQueries.all }),
  });
  const label = t(`monitoring.settings.${def.key}`);
  const description = save.isSuccess
    ? t('monitoring.settings.saved', { value: save.data.value })
    : `${t('monitoring.settings.range', { min: def.min, max: def.max })} ${stored === null ? t('monitoring.settings.defaultValue', { value: def.fallback }) : ''}`.trim();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <NumberInput
          label={label}
          value={value}
          onChange={(v) => {
            setValue(v);
            save.reset();
          }}
          allowDecimal={false}
          clampBehavior="none"
          description={description}
          error={save.error ? errorText(save.error, t) : undefined}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          style={{ flex: 1 }}
          styles={{ description: save.isSuccess ? { color: 'var(--mantine-color-teal-text)' } : undefined }}
        />
        <Button type="submit" mt={24} loading={save.isPending} disabled={value === '' || (save.isSuccess && String(value) === save.data.value)} aria-label={t('monitoring.settings.saveField', { field: label })} mih={36}>
          {t('common.save')}
        </Button>
      </Group>
    </form>
  );
}

function NotifySwitch({ k, stored }: { k: string; stored: string | null }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [checked, setChecked] = useState(isOn(stored));
  const save = useMutation({
    mutationFn: (on: boolean) => monitoringApi.putSetting(k, on ? 'true' : 'false'),
    onSuccess: () => void client.invalidateQueries({ queryKey: monitoringQueries.all }),
    // Refused: the switch goes back to what is stored.
    onError: (_e, on) => setChecked(!on),
  });
  return (
    <Switch
      label={t(`monitoring.settings.${k}`)}
      checked={checked}
      disabled={save.isPending}
      onChange={(e) => {
        const on = e.currentTarget.checked;
        setChecked(on);
        save.mutate(on);
      }}
      description={save.isSuccess ? t('monitoring.settings.saved', { value: t(`monitoring.settings.${isOn(save.data.value) ? 'on' : 'off'}`) }) : undefined}
      error={save.error ? errorText(save.error, t) : undefined}
      styles={{ description: { color: 'var(--mantine-color-teal-text)' }, body: { alignItems: 'center' } }}
      size="md"
    />
  );
}

export function MonitoringSettings({ settings }: { settings: SettingView[] }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {t('monitoring.settings.heading')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('monitoring.settings.help')}
          </Text>
        </div>
        <Stack gap="xs" role="group" aria-labelledby="monitoring-thresholds">
          <Title order={3} size="h5" id="monitoring-thresholds">
            {t('monitoring.settings.thresholds')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {NUMBER_KEYS.map((def) => (
              <NumberSetting key={def.key} def={def} stored={settingValue(settings, def.key)} />
            ))}
          </SimpleGrid>
        </Stack>
        <Stack gap="xs" role="group" aria-labelledby="monitoring-notify">
          <Title order={3} size="h5" id="monitoring-notify">
            {t('monitoring.settings.notifications')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {NOTIFY_KEYS.map((k) => (
              <NotifySwitch key={k} k={k} stored={settingValue(settings, k)} />
            ))}
          </SimpleGrid>
        </Stack>
      </Stack>
    </Card>
  );
}
