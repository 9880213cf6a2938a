/** Times as operators read them: relative ("3 min ago"), the exact time (and Shanghai's) on hover. */
import { Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelative, formatShanghai } from '../i18n/format';
import { useNow } from './use-now';

export function RelativeTime({ value, shanghai = false, size = 'sm' }: { value: string | null | undefined; shanghai?: boolean; size?: 'xs' | 'sm' }) {
  const { t, i18n } = useTranslation();
  const now = useNow(30_000);
  if (!value) return <Text span c="dimmed" size={size}>{t('common.never')}</Text>;
  const exact = formatDateTime(value, i18n.language);
  const label = shanghai ? `${exact} · ${t('common.shanghaiTime', { time: formatShanghai(value, i18n.language) })}` : exact;
  return (
    <Tooltip label={label} withArrow openDelay={300}>
      <Text span size={size} component="time" dateTime={value} tabIndex={0}>
        {formatRelative(value, i18n.language, now)}
      </Text>
    </Tooltip>
  );
}
