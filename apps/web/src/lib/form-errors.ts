import type { TFunction } from 'i18next';
import { ApiError } from './api-client';

/** Field errors are codes (`too_short`); this turns one into the current language. */
export function translateFieldError(t: TFunction, error: unknown): string | undefined {
  if (typeof error !== 'string' || error === '') return undefined;
  return t(`validation.${error}`, { defaultValue: t('validation.invalid_value') });
}

/** The message for a failed API call: the server's code, translated. */
export function apiErrorMessage(t: TFunction, error: unknown, fallbackKey = 'errors.internal_error'): string {
  if (error instanceof ApiError) return t(`errors.${error.code}`, { defaultValue: t(fallbackKey) });
  return t(fallbackKey);
}
