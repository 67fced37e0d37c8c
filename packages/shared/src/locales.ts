/** Interface locales of docs/product-rules.md#product; pt is the default. */
export const LOCALES = ['en', 'pt', 'pt-BR'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Maps loose spellings (`pt_BR`, `pt-br`, `EN`) to a supported locale, or undefined. */
export function normalizeLocale(value: string | null | undefined): Locale | undefined {
  if (!value) return undefined;
  const cleaned = value.trim().replace('_', '-').toLowerCase();
  if (cleaned === 'pt-br') return 'pt-BR';
  if (cleaned === 'pt' || cleaned === 'pt-pt') return 'pt';
  if (cleaned === 'en' || cleaned.startsWith('en-')) return 'en';
  return undefined;
}
