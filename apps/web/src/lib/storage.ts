import { LANGUAGE_COOKIE } from '@vetcall/shared/locales';
import type { SessionUser } from '@vetcall/shared/schemas/auth';

/** Local storage keys (docs/product-rules.md#states Session: token and user data live in local storage). */
const TOKEN_KEY = 'vetcall.token';
const USER_KEY = 'vetcall.user';
const LANGUAGE_KEY = 'vetcall.lang';
/** Session storage (this tab only): the route the tab showed last, so the guard knows a reload of it. */
const TAB_ROUTE_KEY = 'vetcall.route';
/** Session storage (this tab only): the booking form as it was when the customer left for payment. */
const BOOKING_DRAFT_KEY = 'vetcall.booking';

type Area = 'localStorage' | 'sessionStorage';

function read(key: string, area: Area = 'localStorage'): string | null {
  try {
    return window[area].getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null, area: Area = 'localStorage'): void {
  try {
    if (value === null) window[area].removeItem(key);
    else window[area].setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lives in memory only.
  }
}

export const storage = {
  getToken: () => read(TOKEN_KEY),
  getUser(): SessionUser | null {
    const raw = read(USER_KEY);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as SessionUser;
    } catch {
      return null;
    }
  },
  setSession(token: string, user: SessionUser) {
    write(TOKEN_KEY, token);
    write(USER_KEY, JSON.stringify(user));
  },
  getLanguage: () => read(LANGUAGE_KEY),
  setLanguage(language: string) {
    write(LANGUAGE_KEY, language);
    // For the server, which draws the login and registration screens in it (issue 16: first paint).
    document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(language)}; path=/; max-age=31536000; samesite=lax`;
  },
  getTabRoute: () => read(TAB_ROUTE_KEY, 'sessionStorage'),
  /**
   * docs/decisions/012-a-reload-stays-on-its-page.md: this page load is the browser's reload (F5, the reload
   * button) of the route this tab showed last. Typing or following an address, a new tab, and Back/Forward
   * into the app are not reloads. The navigation guard decides by it, and the entry's early reads follow it.
   */
  isReloadOfTabRoute(name: string): boolean {
    const [load] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return load?.type === 'reload' && read(TAB_ROUTE_KEY, 'sessionStorage') === name;
  },
  setTabRoute: (name: string) => write(TAB_ROUTE_KEY, name, 'sessionStorage'),
  getBookingDraft: () => read(BOOKING_DRAFT_KEY, 'sessionStorage'),
  setBookingDraft: (json: string | null) => write(BOOKING_DRAFT_KEY, json, 'sessionStorage'),
  /**
   * Clears local storage (docs/product-rules.md#navigation-guard, #states Logout), and the booking draft, which is the
   * session's too. The chosen language is a preference of the device, not of the session, so it is put back.
   */
  clear() {
    const language = read(LANGUAGE_KEY);
    try {
      window.localStorage.clear();
    } catch {
      // see write()
    }
    if (language) write(LANGUAGE_KEY, language);
    write(BOOKING_DRAFT_KEY, null, 'sessionStorage');
  },
};
