/** Interface locales of docs/product-rules.md#product; pt is the default. */
export const LOCALES = ['en', 'pt', 'pt-BR'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt';

/**
 * The BCP 47 tag of each locale, for i18next and Intl, which take their plural rules from it. CLDR's bare `pt` is
 * Brazil's Portuguese (0 is singular: "0 animal"); our `pt` is Portugal's, whose rules are `pt-PT`'s (0 is plural).
 */
export const LANGUAGE_TAGS: Readonly<Record<Locale, string>> = { en: 'en', pt: 'pt-PT', 'pt-BR': 'pt-BR' };

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

/**
 * The cookie that carries the device's chosen locale to the server (the web app keeps it beside its local
 * storage entry), so the pages drawn on the server (the login and registration screens) come in that language.
 */
export const LANGUAGE_COOKIE = 'vetcall_lang';
