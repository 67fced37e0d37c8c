import { CURRENCY } from '@vetcall/shared/constants';
import type { Locale } from '@vetcall/shared/locales';

/** An instant in the viewer's time zone, with the zone named (ARCHITECTURE §4 Time). */
export function formatDateTime(iso: string, locale: Locale): string {
  // dateStyle and timeStyle cannot be combined with timeZoneName: the fields are spelled out.
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** A calendar date key (YYYY-MM-DD) as the viewer writes dates; no time zone shift. */
export function formatDateKey(key: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${key}T00:00:00Z`));
}

export function formatNumber(value: number, locale: Locale, fractionDigits = 1): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: fractionDigits }).format(value);
}

/** The IANA zone the browser runs in (slots and dates are shown in it). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The time of an instant in the viewer's zone ('14:30'). */
export function formatTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/**
 * An amount in integer cents as the viewer writes euros (docs/product-rules.md#limits: amounts travel in cents,
 * currency EUR).
 */
export function formatEuros(cents: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: CURRENCY }).format(cents / 100);
}
