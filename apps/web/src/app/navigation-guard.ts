import { type LoaderFunctionArgs, redirect } from 'react-router';
import { GUARD_ALLOWED_ORIGINS, type RouteName } from '@vetcall/shared/routes';
import { HOME_ROUTE_BY_TYPE } from '@vetcall/shared/roles';
import { authStore } from '../lib/auth-store';
import { storage } from '../lib/storage';

/** The name of the route shown before the current navigation; undefined on a fresh page load. */
let previousRouteName: string | undefined;

/** For tests: forget the navigation history of this page load, as a new page load does (the tab's marker stays). */
export function resetNavigationHistory(): void {
  previousRouteName = undefined;
}

/** Remembers the route being entered, for this page load and for a reload of this tab. */
function enter(name: string): void {
  previousRouteName = name;
  storage.setTabRoute(name);
}

/**
 * docs/product-rules.md#navigation-guard: entering /customer, /manager or /vet from any screen but Login, CustomerData,
 * Request Confirmed, VetData or ManagerData clears local storage and goes to / with a redirect query
 * holding the intended path. A direct visit (no previous screen) counts as such an entry, but a reload
 * of the page the tab showed does not. Moving within the same screen (changing its mode) is not an
 * entry. Entering without a session, or the page of another access type, is refused the same way.
 */
export function guardedEntry(name: RouteName, path: string, requiresAuth: boolean) {
  return ({ request }: LoaderFunctionArgs) => {
    const from = previousRouteName;
    const reloaded = from === undefined && storage.isReloadOfTabRoute(name);
    enter(name);
    if (!requiresAuth || from === name) return null;

    const { user, token } = authStore.getState();
    const allowedOrigin =
      reloaded || (from !== undefined && (GUARD_ALLOWED_ORIGINS as readonly string[]).includes(from));
    const ownPage = user !== null && HOME_ROUTE_BY_TYPE[user.type] === path;
    if (allowedOrigin && token && ownPage) return null;

    authStore.clear();
    enter('Login');
    const intended = new URL(request.url).pathname;
    return redirect(`/?redirect=${encodeURIComponent(intended)}`);
  };
}

/** Records screens that have no guard, so the guard knows where a navigation came from. */
export function trackedEntry(name: string) {
  return () => {
    enter(name);
    return null;
  };
}

/** Screens that only make sense with a session (own data screens): without one, back to login. */
export function sessionEntry(name: RouteName) {
  return () => {
    enter(name);
    return authStore.getState().token ? null : redirect('/');
  };
}
