import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LANGUAGE_TAGS, type Locale, normalizeLocale } from '@vetcall/shared/locales';
import { getStartupJson, translationsUrl } from './startup-requests';
import { storage } from './storage';
import { yieldToMain } from './yield-to-main';

/**
 * Fetches a catalog from the server (docs/product-rules.md#product: translations are loaded from the server at start).
 */
async function fetchCatalog(locale: Locale): Promise<Record<string, unknown>> {
  const response = await getStartupJson(translationsUrl(locale));
  if (!response.ok) throw new Error(`translations ${locale}: HTTP ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * i18next knows each locale by its language tag (LANGUAGE_TAGS), catalog included: it picks plural forms with
 * Intl.PluralRules of that tag, and `pt` must count as Portugal's (0 takes the plural), not CLDR's bare `pt`.
 */
export async function initI18n(locale: Locale) {
  const catalog = await fetchCatalog(locale);
  // Reading the catalog and setting i18next up are each some milliseconds of a slow phone's start: two tasks.
  await yieldToMain();
  const language = LANGUAGE_TAGS[locale];
  await i18next.use(initReactI18next).init({
    lng: language,
    resources: { [language]: { translation: catalog } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  storage.setLanguage(locale);
  document.documentElement.lang = locale;
  return i18next;
}

/** Switches language, loading its catalog first; on failure the current language stays. */
export async function changeLanguage(locale: Locale): Promise<void> {
  const language = LANGUAGE_TAGS[locale];
  if (!i18next.hasResourceBundle(language, 'translation')) {
    i18next.addResourceBundle(language, 'translation', await fetchCatalog(locale));
  }
  await i18next.changeLanguage(language);
  storage.setLanguage(locale);
  document.documentElement.lang = locale;
}

/** The locale of i18next's language (`pt-PT` is `pt`). */
export function currentLocale(): Locale {
  return normalizeLocale(i18next.language) ?? DEFAULT_LOCALE;
}
