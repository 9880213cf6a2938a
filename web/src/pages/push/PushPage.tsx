/**
 * The push flow as one guided page: source → servers → preview and options → live progress.
 * The push starts asynchronously (the service answers at once with the batch id), and the id
 * goes into the URL (`?batch=`), so a reload or a shared link shows the same live batch. Before
 * that, the step and the choices are in the URL too (./push-flow-params). After Next or Back,
 * focus moves to the new step's heading, so a keyboard or screen-reader user starts reading there.
 */
import { Button, Group, Paper, Stepper, Text, Title } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { push } from '../../api/endpoints';
import { useStartWork } from '../../api/start-work';
import { BatchLive } from '../../components/batch/BatchLive';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { Page } from '../../components/Page';
import { usePushFlowParams } from './push-flow-params';
import { ReviewStep } from './ReviewStep';
import { ServersStep } from './ServersStep';
import { SourceStep } from './SourceStep';

/** What must be typed before a full push (it deletes files on every server). */
const FULL_WORD = 'full';

export default function PushPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const batchId = params.get('batch');
  const { step, source, selected, ids, options, setStep: goTo, setSource, setSelected, setOptions, reset } = usePushFlowParams();
  const [confirmFull, setConfirmFull] = useState(false);
  const phone = useMediaQuery('(max-width: 30em)') ?? false;
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const setStep = (s: number) => {
    moved.current = true;
    goTo(s);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes, to move focus to its heading
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    heading.current?.focus();
  }, [step]);

  const start = useStartWork({
    work: (key) =>
      push.start({ server_ids: ids, source_path: source ?? '', target_path: options.targetPath.trim() || null, sync_mode: options.mode }, key),
    onSuccess: (res) => {
      setConfirmFull(false);
      setParams({ batch: res.batch_id });
    },
  });
  const showBatch = (id: string) => setParams({ batch: id });
  const restart = () => {
    setParams({});
    reset();
    start.reset();
  };
  const stepNames = [t('push.stepSource'), t('push.stepServers'), t('push.stepPreview')];
  const stepHeading = (
    <Title order={2} size="h3" ref={heading} tabIndex={-1} mb="sm" style={{ outline: 'none' }}>
      {t('flow.stepHeading', { step: step + 1, steps: stepNames.length, name: stepNames[step] })}
    </Title>
  );

  if (batchId) {
    return (
      <Page
        title={t('push.progressTitle', { id: batchId })}
        actions={
          <Button variant="light" leftSection={<IconCloudUpload size={16} aria-hidden />} onClick={restart}>
            {t('push.newPush')}
          </Button>
        }
      >
        <BatchLive key={batchId} batchId={batchId} onNewBatch={showBatch} linkToBatch />
      </Page>
    );
  }

  const canNext = [source !== null, selected.size > 0, true][step] ?? false;
  const begin = () => (options.mode === 'full' ? setConfirmFull(true) : start.start());
  return (
    <Page title={t('push.title')}>
      {/* On a phone the three steps stay on one line: smaller icons, no step descriptions. */}
      <Stepper active={step} onStepClick={(s) => s < step && setStep(s)} size={phone ? 'xs' : 'sm'} iconSize={phone ? 28 : undefined} allowNextStepsSelect={false} wrap={!phone}>
        <Stepper.Step label={t('push.stepSource')} description={source && !phone ? <Text span size="xs" ff="monospace">{source.split('/').pop()}</Text> : undefined}>
          {stepHeading}
          <SourceStep value={source} onChange={setSource} />
        </Stepper.Step>
        <Stepper.Step label={t('push.stepServers')} description={selected.size > 0 && !phone ? t('push.selected', { count: selected.size }) : undefined}>
          {stepHeading}
          <ServersStep selected={selected} onChange={setSelected} />
        </Stepper.Step>
        <Stepper.Step label={t('push.stepPreview')}>
          {stepHeading}
          {source && <ReviewStep source={source} ids={ids} options={options} onOptions={setOptions} />}
        </Stepper.Step>
      </Stepper>
      <ErrorDisplay error={start.error} />
      <Paper withBorder p="sm" pos="sticky" bottom={0} style={{ zIndex: 2 }}>
        <Group justify="space-between">
          <Button variant="default" disabled={step === 0} onClick={() => setStep(step - 1)}>
            {t('common.back')}
          </Button>
          {step < 2 ? (
            <Button disabled={!canNext} onClick={() => setStep(step + 1)}>
              {t('common.next')}
            </Button>
          ) : (
            <Button color={options.mode === 'full' ? 'red' : undefined} loading={start.pending} disabled={!source || ids.length === 0} onClick={begin}>
              {t('push.start', { count: ids.length })}
            </Button>
          )}
        </Group>
      </Paper>
      <ConfirmDialog
        opened={confirmFull}
        title={t('push.modeFull')}
        message={t('push.fullConfirm', { count: ids.length })}
        word={FULL_WORD}
        confirmLabel={t('push.start', { count: ids.length })}
        loading={start.pending}
        onConfirm={() => start.start()}
        onClose={() => setConfirmFull(false)}
      />
    </Page>
  );
}
