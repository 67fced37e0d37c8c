import { CURRENCY } from '@vetcall/shared/constants';
import type { Locale } from '@vetcall/shared/locales';

/** An amount in integer cents as the viewer writes euros (SPEC §9: amounts travel in cents, currency EUR). */
export function formatEuros(cents: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: CURRENCY }).format(cents / 100);
}
