/** Times as operators read them: relative ("3 min ago"), the exact time (and Shanghai's) on hover. */
import { Text, Tooltip } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelative, formatShanghai } from '../i18n/format';

/** Re-renders every `ms` so relative times stay true while a page is open. */
function useNow(ms = 30_000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

export function RelativeTime({ value, shanghai = false }: { value: string | null | undefined; shanghai?: boolean }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  if (!value) return <Text span c="dimmed" size="sm">{t('common.never')}</Text>;
  const exact = formatDateTime(value, i18n.language);
  const label = shanghai ? `${exact} · ${t('common.shanghaiTime', { time: formatShanghai(value, i18n.language) })}` : exact;
  return (
    <Tooltip label={label} withArrow openDelay={300}>
      <Text span size="sm" component="time" dateTime={value} tabIndex={0}>
        {formatRelative(value, i18n.language, now)}
      </Text>
    </Tooltip>
  );
}
