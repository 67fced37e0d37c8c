import type { Locale } from '@vetcall/shared/locales';

const KB = 1024;
const MB = 1024 * 1024;

/**
 * A file size as docs/product-rules.md#limits shows it: bytes under 1 KB, KB under 1 MB, otherwise MB with one decimal.
 * KB are whole and rounded down, so a size under 1 MB never reads "1024 KB".
 */
export function formatFileSize(bytes: number, locale: Locale): string {
  if (bytes < KB) return `${new Intl.NumberFormat(locale).format(bytes)} B`;
  if (bytes < MB) return `${new Intl.NumberFormat(locale).format(Math.floor(bytes / KB))} KB`;
  const megabytes = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${megabytes.format(bytes / MB)} MB`;
}
