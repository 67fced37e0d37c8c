import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import i18next from 'i18next';
import { whenModalsHostReady } from './modals-host';

/** A confirmation dialog as a promise: true when confirmed, false when cancelled or closed. */
export function confirmDialog(options: { title: string; message: string; confirmLabel?: string; danger?: boolean }) {
  return new Promise<boolean>((resolve) => {
    void whenModalsHostReady().then(() =>
      modals.openConfirmModal({
        title: options.title,
        children: <Text size="sm">{options.message}</Text>,
        labels: { confirm: options.confirmLabel ?? i18next.t('common.confirm'), cancel: i18next.t('common.cancel') },
        confirmProps: options.danger ? { color: 'red' } : undefined,
        closeButtonProps: { 'aria-label': i18next.t('common.close') },
        onConfirm: () => resolve(true),
        onCancel: () => resolve(false),
        onClose: () => resolve(false),
      }),
    );
  });
}
