/** One name asked for: a new folder's, or an entry's new name (a sibling in the same folder). */
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorDisplay } from '../../components/ErrorDisplay';
import { validName } from './remote-paths';

interface Props {
  opened: boolean;
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

export function NameDialog({ opened, title, label, initial, submitLabel, pending, error, onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [touched, setTouched] = useState(false);
  // Each opening starts from the name it is given.
  const [shownFor, setShownFor] = useState<string | null>(null);
  const key = opened ? `${title}\u0000${initial}` : null;
  if (key !== shownFor) {
    setShownFor(key);
    setName(initial);
    setTouched(false);
  }
  const ok = validName(name) && name.trim() !== initial;
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (ok && !pending) onSubmit(name.trim());
        }}
      >
        <Stack>
          <TextInput
            label={label}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={touched && !validName(name) ? t('remoteFiles.nameInvalid') : undefined}
            data-autofocus
            autoComplete="off"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <ErrorDisplay error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending} disabled={!ok}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
