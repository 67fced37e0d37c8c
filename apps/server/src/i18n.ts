import { DEFAULT_LOCALE, type Locale } from '@vetcall/shared/locales';
import en from '@vetcall/shared/i18n/en.json' with { type: 'json' };
import pt from '@vetcall/shared/i18n/pt.json' with { type: 'json' };
import ptBR from '@vetcall/shared/i18n/pt-BR.json' with { type: 'json' };

export type Catalog = { [key: string]: string | Catalog };

export const CATALOGS: Record<Locale, Catalog> = { en, pt, 'pt-BR': ptBR };

function lookup(catalog: Catalog, key: string): string | undefined {
  let node: string | Catalog | undefined = catalog;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Server-side translation with i18next's `{{name}}` interpolation, falling back to English. */
export function translate(locale: Locale, key: string, values: Record<string, string | number> = {}): string {
  const template = lookup(CATALOGS[locale] ?? CATALOGS[DEFAULT_LOCALE], key) ?? lookup(CATALOGS.en, key);
  if (template === undefined) throw new Error(`missing translation key ${key}`);
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}
