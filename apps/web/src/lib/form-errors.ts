import type { TFunction } from 'i18next';
import { ApiError } from './api-client';

/** Field errors are codes (`too_short`); this turns one into the current language. */
export function translateFieldError(t: TFunction, error: unknown): string | undefined {
  if (typeof error !== 'string' || error === '') return undefined;
  return t(`validation.${error}`, { defaultValue: t('validation.invalid_value') });
}

/** The message for a failed API call: the server's code, translated; a 429 says when to try again. */
export function apiErrorMessage(t: TFunction, error: unknown, fallbackKey = 'errors.internal_error'): string {
  if (error instanceof ApiError && error.status === 429) return tooManyRequestsMessage(t, error.retryAfterSeconds);
  if (error instanceof ApiError) return t(`errors.${error.code}`, { defaultValue: t(fallbackKey) });
  return t(fallbackKey);
}

/** 'Too many attempts. Try again in N minutes.', from a 429's Retry-After (whole minutes, at least one). */
export function tooManyRequestsMessage(t: TFunction, retryAfterSeconds: number | undefined): string {
  if (retryAfterSeconds === undefined) return t('errors.too_many_requests');
  // A short wait (the login slow-down is 10 s) is said in seconds: "1 minute" would send people away.
  if (retryAfterSeconds < 60) {
    return t('errors.too_many_requests_retry_seconds', { count: Math.max(1, Math.ceil(retryAfterSeconds)) });
  }
  return t('errors.too_many_requests_retry', { count: Math.ceil(retryAfterSeconds / 60) });
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
