import { DEFAULT_LOCALE, type Locale, normalizeLocale } from '@vetcall/shared/locales';
import { storage } from './storage';

/**
 * The app cannot show anything before its translations and client configuration arrive (main.tsx). The first
 * chunk sends both requests at once, while the rest of the app downloads, instead of after it (issue 16: the
 * login page's first paint waited for the JavaScript and then for these).
 */
const started = new Map<string, Promise<Response>>();

export const translationsUrl = (locale: Locale) => `/api/translations/${locale}`;
export const CLIENT_CONFIG_URL = '/api/client-config';

/** ?lang= first, then the stored choice, then pt. */
export function preferredLocale(search = window.location.search): Locale {
  const fromQuery = normalizeLocale(new URLSearchParams(search).get('lang'));
  return fromQuery ?? normalizeLocale(storage.getLanguage()) ?? DEFAULT_LOCALE;
}

const getJson = (url: string) => fetch(url, { headers: { accept: 'application/json' } });

export function startStartupRequests(): void {
  const locale = preferredLocale();
  // Kept at once, as initI18n keeps it once the catalog is in: the page's load event now comes before that, and
  // a page left in between (a quick ?lang=en, then another address) must not forget the choice.
  storage.setLanguage(locale);
  for (const url of [translationsUrl(locale), CLIENT_CONFIG_URL]) started.set(url, getJson(url));
}

/** The response of `url`: the one started early if there is one (used once), else a new request. */
export function getStartupJson(url: string): Promise<Response> {
  const early = started.get(url);
  started.delete(url);
  return early ?? getJson(url);
}
