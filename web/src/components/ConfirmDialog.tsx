/**
 * Destructive actions name what they destroy and ask for the word to be typed (the server's name,
 * DELETE, …) before the button becomes active.
 */
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: string;
  /** What must be typed; omitted: a plain confirmation. */
  word?: string;
  confirmLabel: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ opened, title, message, word, confirmLabel, loading, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  // Each opening asks afresh: a page that closes the dialog itself (after the action) never
  // calls onClose, and the word typed last time must not arm the button for the next item.
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) setTyped('');
  }
  const ready = word === undefined || typed === word;
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack>
        <Text size="sm">{message}</Text>
        {word !== undefined && (
          <TextInput label={t('servers.typeToConfirm', { word })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} data-autofocus autoComplete="off" />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button color="red" disabled={!ready} loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
