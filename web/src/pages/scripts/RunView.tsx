/**
 * One run, live: a header with the run's status and "n failed of m", Expand all / Collapse all,
 * and a panel per server (failures first once they end) with its status, exit code, duration and
 * output as it arrives (stderr in red). Reloading the page replays the run's journal, so the
 * output is the same, without gaps or doubles.
 */
import { Accordion, ActionIcon, Alert, Anchor, Box, Button, CopyButton, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconCheck, IconCopy, IconFold, IconFoldDown } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { StatusBadge } from '../../components/StatusBadge';
import { RelativeTime } from '../../components/Time';
import { formatDuration } from '../../i18n/format';
import { outputText, type ServerRun, useRunStream } from './run-stream';
import { runLabel, serverErrorText } from './run-text';

const OPEN_ALL_UP_TO = 20;
const RANK: Record<string, number> = { failed: 0, running: 1, pending: 2, success: 3 };

function Output({ s }: { s: ServerRun }) {
  const { t } = useTranslation();
  const box = useRef<HTMLPreElement>(null);
  const stick = useRef(true);
  // Follows new output while the reader is at the bottom; scrolling up stops following.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when output grows
  useEffect(() => {
    const el = box.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [s.chunks.length]);
  if (s.chunks.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {s.status === 'pending' ? t('scripts.waiting') : t('scripts.noOutput')}
      </Text>
    );
  }
  const name = s.server_name ?? t('scripts.unknownServer', { id: s.server_id });
  return (
    <Stack gap={4}>
      <Box pos="relative">
        <CopyButton value={outputText(s)} timeout={1500}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('common.copied') : t('common.copy')} withArrow>
              <ActionIcon
                variant="default"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={t('scripts.copyOutput', { server: name })}
                size={40}
                style={{ position: 'absolute', top: 4, right: 4, zIndex: 1 }}
              >
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      <pre
        ref={box}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
        role="log"
        aria-live="off"
        aria-label={t('scripts.outputOf', { server: name })}
        data-testid={`output-${s.server_id}`}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        style={{
          margin: 0, padding: 8, paddingRight: 52, minHeight: 48, maxHeight: 360, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12,
          fontFamily: 'var(--mantine-font-family-monospace)', background: 'var(--mantine-color-default-hover)', borderRadius: 4,
        }}
      >
        {s.chunks.map((c, i) =>
          c.stream === 'stderr' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: chunks only ever append
            <span key={i} style={{ color: 'var(--mantine-color-red-text)' }}>
              {c.data}
            </span>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: chunks only ever append
            <span key={i}>{c.data}</span>
          ),
        )}
      </pre>
      </Box>
      {s.truncated && (
        <Text size="xs" c="dimmed">
          {t('scripts.truncated')}
        </Text>
      )}
    </Stack>
  );
}

function ServerHeader({ s }: { s: ServerRun }) {
  const { t, i18n } = useTranslation();
  const ended = s.status === 'success' || s.status === 'failed';
  return (
    <Group gap="xs" wrap="wrap" justify="space-between" w="100%" pr="xs">
      <Text fw={600} style={{ wordBreak: 'break-all' }}>
        {s.server_name ?? t('scripts.unknownServer', { id: s.server_id })}
      </Text>
      <Group gap={6} wrap="wrap">
        <StatusBadge status={s.status} />
        {ended && (
          <Text size="sm" ff="monospace" data-testid={`exit-${s.server_id}`}>
            {s.exit_code === null ? t('scripts.noExitCode') : t('scripts.exitCode', { code: s.exit_code })}
          </Text>
        )}
        {s.duration_ms !== null && (
          <Text size="sm" c="dimmed">
            {formatDuration(s.duration_ms, i18n.language)}
          </Text>
        )}
      </Group>
    </Group>
  );
}

export function RunView() {
  const { t, i18n } = useTranslation();
  const { runId = '' } = useParams();
  const { run, error } = useRunStream(runId);
  const [open, setOpen] = useState<string[] | null>(null);

  const rows = useMemo(() => {
    const list = run.order.map((id) => run.servers[id]).filter(Boolean);
    // Failures first once the run has ended; while it runs, the request's order stays put.
    return run.status === 'running' ? list : [...list].sort((a, b) => (RANK[a.status] ?? 9) - (RANK[b.status] ?? 9));
  }, [run]);
  const allKeys = rows.map((r) => String(r.server_id));
  // Until the reader chooses: every server open on a small run; on a large one, only the failures.
  const expanded = open ?? (rows.length <= OPEN_ALL_UP_TO ? allKeys : rows.filter((r) => r.status === 'failed').map((r) => String(r.server_id)));
  const failed = rows.filter((r) => r.status === 'failed').length;
  const notFound = error instanceof ApiError && error.status === 404;

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/scripts" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('scripts.backToEditor')}
        </Group>
      </Anchor>
      {notFound ? (
        <Alert color="yellow" role="alert">
          {t('scripts.runNotFound')}
        </Alert>
      ) : (
        <ErrorDisplay error={error} />
      )}
      {!notFound && (
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Title order={2} size="h3" style={{ wordBreak: 'break-word' }}>
                {t('scripts.runHeading', { label: runLabel(run.label, t) })}
              </Title>
              <StatusBadge status={run.status} size="md" />
            </Group>
            <Group gap="md" wrap="wrap">
              {rows.length > 0 && (
                <Text size="sm" fw={600} aria-live="polite" data-testid="run-summary">
                  {t('scripts.failedOf', { failed, count: rows.length })}
                </Text>
              )}
              {run.operator && (
                <Text size="sm" c="dimmed">
                  {t('scripts.startedBy', { operator: run.operator })}
                </Text>
              )}
              {run.started_at && <RelativeTime value={run.started_at} />}
              {run.duration_ms !== null && (
                <Text size="sm" c="dimmed">
                  {formatDuration(run.duration_ms, i18n.language)}
                </Text>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {t('scripts.stderrNote')}
            </Text>
          </Stack>
        </Paper>
      )}
      {rows.length > 0 && (
        <Group gap="xs">
          <Button variant="default" leftSection={<IconFoldDown size={16} aria-hidden />} onClick={() => setOpen(allKeys)} mih={40}>
            {t('scripts.expandAll')}
          </Button>
          <Button variant="default" leftSection={<IconFold size={16} aria-hidden />} onClick={() => setOpen([])} mih={40}>
            {t('scripts.collapseAll')}
          </Button>
        </Group>
      )}
      <Accordion multiple value={expanded} onChange={setOpen} variant="separated" chevronPosition="left">
        {rows.map((s) => (
          <Accordion.Item key={s.server_id} value={String(s.server_id)} data-testid={`server-${s.server_id}`}>
            <Accordion.Control mih={40}>
              <ServerHeader s={s} />
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                {s.error && (
                  <Text size="sm" c="red" role="note">
                    {serverErrorText(s.error, t)}
                  </Text>
                )}
                <Output s={s} />
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}
