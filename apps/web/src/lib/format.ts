import type { Locale } from '@vetcall/shared/locales';

/** An instant in the viewer's time zone, with the zone named (ARCHITECTURE §4 Time). */
export function formatDateTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZoneName: 'short' }).format(
    new Date(iso),
  );
}

/** A calendar date key (YYYY-MM-DD) as the viewer writes dates; no time zone shift. */
export function formatDateKey(key: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${key}T00:00:00Z`));
}

export function formatNumber(value: number, locale: Locale, fractionDigits = 1): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: fractionDigits }).format(value);
}
