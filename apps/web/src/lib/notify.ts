import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { ERROR_TOAST_MS } from '@vetcall/shared/constants';

/** Toasts last ERROR_TOAST_MS (docs/product-rules.md#limits: 5 s). */
function show(message: string, color: string): void {
  notifications.show({
    message,
    color,
    autoClose: ERROR_TOAST_MS,
    withBorder: true,
    closeButtonProps: { 'aria-label': i18next.t('common.close') },
  });
}

export const notifySuccess = (message: string) => show(message, 'teal');
export const notifyError = (message: string) => show(message, 'red');
