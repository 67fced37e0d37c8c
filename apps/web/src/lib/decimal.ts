import type { Locale } from '@vetcall/shared/locales';

/** Digits with at most one decimal separator, either '.' or ',' (a thousands separator is never read). */
const DECIMAL_TEXT = /^(\d*)(?:[.,](\d*))?$/;

/**
 * What a decimal field's text says (docs/product-rules.md#validation Decimal fields), in any language: '.' and ','
 * both separate the decimals. '' when there is no digit yet ('', '.', ','); null when the text is not a number with
 * at most `decimals` digits after the separator ('1.500' for a price, which someone may have meant as 1500).
 */
export function readDecimal(text: string, decimals: number): number | '' | null {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) return null;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return '';
  if (fraction.length > decimals) return null;
  return Number(`${whole || '0'}.${fraction || '0'}`);
}

/** A number as the language writes it, without grouping (so it reads back the same): 4.6 is '4,6' in Portuguese. */
export function formatDecimal(value: number, locale: Locale, decimals: number, fixedDecimals = false): string {
  return new Intl.NumberFormat(locale, {
    useGrouping: false,
    maximumFractionDigits: decimals,
    minimumFractionDigits: fixedDecimals ? decimals : 0,
  }).format(value);
}
