/**
 * Schedule times as the schedules page shows them: each instant in Asia/Shanghai (the zone the
 * service schedules in) and in the browser's own zone, both labelled; and the Shanghai wall-clock
 * text the one-shot picker edits (`YYYY-MM-DD HH:mm:ss`, which the service reads as Shanghai time).
 */
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime, SHANGHAI } from '../../i18n/format';

/** The browser's IANA zone ("Europe/Berlin"); UTC when the browser does not say. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** `2026-11-27 09:30:00` on Shanghai's clock for an instant; null for no or a bad value. */
export function shanghaiWallClock(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (!Number.isFinite(d.getTime())) return null;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: SHANGHAI, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** An instant twice, labelled: Asia/Shanghai first (the service's zone), then the browser's. */
export function ZonedTimes({ value, size = 'sm' }: { value: string; size?: 'xs' | 'sm' }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <Stack gap={0}>
      <Text size={size} component="time" dateTime={value}>
        {t('schedules.zoneShanghai', { time: formatDateTime(value, lang, SHANGHAI) })}
      </Text>
      <Text size="xs" c="dimmed">
        {t('schedules.zoneLocal', { time: formatDateTime(value, lang, browserZone()), zone: browserZone() })}
      </Text>
    </Stack>
  );
}
