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

/** Reads of the screen being opened, started by the entry: each taken once, by a request with the same token. */
const screenReads = new Map<string, { authorization: string; response: Promise<Response> }>();

/**
 * The booking screen's reads (the vets, the customer, then their pets), sent with the start-up requests
 * rather than once the screen's code has arrived and run (issue 16: its form waited for its code, then for the
 * customer, then for the pets). Only on a page load that shows the screen: the navigation guard lets a direct
 * visit through only as the reload of the tab's own route (app/navigation-guard.ts); and only in the booking
 * mode, the customer page's first (app/modes.ts).
 */
export function startScreenReads(location: Pick<Location, 'pathname' | 'search'> = window.location): void {
  const token = storage.getToken();
  const user = storage.getUser();
  const showsBooking =
    user?.type === 'customer' &&
    storage.isReloadOfTabRoute('Customer') &&
    /^\/customer\/?$/i.test(location.pathname) &&
    new URLSearchParams(location.search).get('mode') !== 'appointments';
  if (!token || !showsBooking) return;
  const authorization = `Bearer ${token}`;
  const read = (url: string) => {
    const response = fetch(url, { headers: { accept: 'application/json', authorization } });
    screenReads.set(url, { authorization, response });
    return response;
  };
  void read('/api/users/vet').catch(() => undefined);
  read(`/api/users/customer/byemail/${encodeURIComponent(user.email)}`)
    .then((response) => (response.ok ? (response.clone().json() as Promise<{ customer_id?: unknown }>) : undefined))
    .then((customer) => {
      if (typeof customer?.customer_id !== 'number') return;
      void read(`/api/pets/customer/${customer.customer_id}?lang=${preferredLocale(location.search)}`).catch(
        () => undefined,
      );
    })
    .catch(() => undefined);
}

/** The response of a GET of `path` the entry started, if it was started with the same `authorization`; once. */
export function takeScreenRead(path: string, authorization: string | undefined): Promise<Response> | undefined {
  const read = screenReads.get(path);
  if (!read) return undefined;
  screenReads.delete(path);
  return read.authorization === authorization ? read.response : undefined;
}
