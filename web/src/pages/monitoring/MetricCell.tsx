/**
 * One reading in the monitoring table: the last value (a warning icon and colour at or above the
 * alert threshold, never colour alone) and a sparkline of the recent readings. The chart is
 * `inert` (recharts makes every chart a tab stop; a page of them would cost a Tab each) and
 * described in words by its wrapper instead.
 */
import { Sparkline } from '@mantine/charts';
import { Box, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

function pct(v: number, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(v / 100);
}

/** The mark of a missing reading, dimmed and right-aligned like the values, so a column lines up. */
export function NoReading() {
  return (
    <Text size="sm" c="dimmed" ta="right">
      —
    </Text>
  );
}

export function MetricCell({ label, value, points, threshold, color }: { label: string; value: number | null; points: number[]; threshold: number; color: string }) {
  const { t, i18n } = useTranslation();
  if (value === null) {
    return <NoReading />;
  }
  const over = value >= threshold;
  return (
    <Group gap={6} wrap="nowrap" justify="flex-end">
      <Stack gap={0} align="flex-end">
        <Group gap={2} wrap="nowrap">
          {over && <IconAlertTriangle size={14} color="var(--mantine-color-red-text)" aria-label={t('monitoring.overThreshold', { threshold })} role="img" />}
          <Text size="sm" fw={over ? 700 : 500} c={over ? 'red' : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {pct(value, i18n.language)}
          </Text>
        </Group>
      </Stack>
      {points.length > 1 && (
        <Box
          role="img"
          aria-label={t('monitoring.trend', { metric: label, count: points.length, first: pct(points[0], i18n.language), last: pct(points[points.length - 1], i18n.language) })}
          w={64}
          h={24}
          style={{ flexShrink: 0 }}
        >
          <div inert>
            <Sparkline w={64} h={24} data={points} color={over ? 'red.6' : color} fillOpacity={0.25} strokeWidth={1.5} curveType="linear" />
          </div>
        </Box>
      )}
    </Group>
  );
}
