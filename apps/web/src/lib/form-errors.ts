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

/** Codes that say nothing a person can act on; the action's own message is clearer for them. */
const GENERIC_CODES = new Set(['validation_failed', 'not_found', 'internal_error']);

/**
 * The message for a failed action: the server's own reason when the person can act on it (email in
 * use, too many requests, no connection…), otherwise the action's error of docs/product-rules.md#errors.
 */
export function actionErrorMessage(t: TFunction, error: unknown, fallbackKey: string): string {
  if (error instanceof ApiError && !GENERIC_CODES.has(error.code)) return apiErrorMessage(t, error, fallbackKey);
  return t(fallbackKey);
}
