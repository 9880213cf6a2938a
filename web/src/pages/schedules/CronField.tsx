/**
 * The cron field: as the operator types, the next five runs appear below it, computed in the
 * browser by the service's own rules (`@server/modules/schedules/cron-rules`), each in Asia/Shanghai
 * and the browser's zone; an expression the service would refuse shows why on the field itself.
 */
import { List, Paper, Stack, Text, TextInput } from '@mantine/core';
import { checkCron, nextCronRuns } from '@server/modules/schedules/cron-rules';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ZonedTimes } from './schedule-time';

const PREVIEW = 5;

/** The translation key of what is wrong with `expr`, or null when the service would accept it. */
export function cronProblem(expr: string): string | null {
  if (!expr.trim()) return 'schedules.form.cronRequired';
  const c = checkCron(expr);
  if (c.ok) return null;
  return c.reason === 'fields' ? 'schedules.form.cronFields' : 'schedules.form.cronSyntax';
}

export function CronField({ value, onChange, error, touched }: { value: string; onChange: (v: string) => void; error?: string | null; touched: boolean }) {
  const { t } = useTranslation();
  const problem = value.trim() || touched ? cronProblem(value) : null;
  // Recomputed per keystroke: five matches are cheap, and the preview must never lag the field.
  const runs = useMemo(() => (problem ? [] : nextCronRuns(value, PREVIEW, new Date())), [value, problem]);
  return (
    <Stack gap="xs">
      <TextInput
        label={t('schedules.form.cronExpr')}
        description={t('schedules.form.cronHelp')}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={problem ? t(problem) : error}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        autoComplete="off"
        spellCheck={false}
        required
      />
      {!problem && (
        <Paper withBorder p="sm">
          <Text id="cron-next-five" size="sm" fw={600}>
            {t('schedules.form.nextFive')}
          </Text>
          <Text size="xs" c="dimmed" mb={6}>
            {t('schedules.form.nextFiveHelp')}
          </Text>
          {runs.length === 0 ? (
            <Text size="sm">{t('schedules.form.noMatch')}</Text>
          ) : (
            <List aria-labelledby="cron-next-five" spacing={6} size="sm" listStyleType="decimal" withPadding>
              {runs.map((iso) => (
                <List.Item key={iso} data-run={iso}>
                  <ZonedTimes value={iso} />
                </List.Item>
              ))}
            </List>
          )}
        </Paper>
      )}
    </Stack>
  );
}
