import { notifications } from '@mantine/notifications';
import { ERROR_TOAST_MS } from '@vetcall/shared/constants';

/** Toasts last ERROR_TOAST_MS (SPEC §9: 5 s). */
export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'teal', autoClose: ERROR_TOAST_MS, withBorder: true });
}

export function notifyError(message: string): void {
  notifications.show({ message, color: 'red', autoClose: ERROR_TOAST_MS, withBorder: true });
}
