import type { SessionUser } from '@vetcall/shared/schemas/auth';

/** Local storage keys (docs/product-rules.md#states Session: token and user data live in local storage). */
const TOKEN_KEY = 'vetcall.token';
const USER_KEY = 'vetcall.user';
const LANGUAGE_KEY = 'vetcall.lang';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
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
  setLanguage: (language: string) => write(LANGUAGE_KEY, language),
  /**
   * Clears local storage (docs/product-rules.md#navigation-guard, #states Logout). The chosen language is a preference
   * of the device, not of the session, so it is put back.
   */
  clear() {
    const language = read(LANGUAGE_KEY);
    try {
      window.localStorage.clear();
    } catch {
      // see write()
    }
    if (language) write(LANGUAGE_KEY, language);
  },
};
