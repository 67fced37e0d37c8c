import { type LoaderFunctionArgs, redirect } from 'react-router';
import { GUARD_ALLOWED_ORIGINS, type RouteName } from '@vetcall/shared/routes';
import { HOME_ROUTE_BY_TYPE } from '@vetcall/shared/roles';
import { authStore } from '../lib/auth-store';

/** The name of the route shown before the current navigation; undefined on a fresh page load. */
let previousRouteName: string | undefined;

/** For tests: forget the navigation history. */
export function resetNavigationHistory(): void {
  previousRouteName = undefined;
}

/**
 * docs/product-rules.md#navigation-guard: entering /customer, /manager or /vet from any screen but Login, CustomerData,
 * Request Confirmed, VetData or ManagerData clears local storage and goes to / with a redirect query
 * holding the intended path. A direct visit (no previous screen) counts as such an entry. Moving
 * within the same screen (changing its mode) is not an entry. Entering without a session, or the
 * page of another access type, is refused the same way.
 */
export function guardedEntry(name: RouteName, path: string, requiresAuth: boolean) {
  return ({ request }: LoaderFunctionArgs) => {
    const from = previousRouteName;
    previousRouteName = name;
    if (!requiresAuth || from === name) return null;

    const { user, token } = authStore.getState();
    const allowedOrigin = from !== undefined && (GUARD_ALLOWED_ORIGINS as readonly string[]).includes(from);
    const ownPage = user !== null && HOME_ROUTE_BY_TYPE[user.type] === path;
    if (allowedOrigin && token && ownPage) return null;

    authStore.clear();
    previousRouteName = 'Login';
    const intended = new URL(request.url).pathname;
    return redirect(`/?redirect=${encodeURIComponent(intended)}`);
  };
}

/** Records screens that have no guard, so the guard knows where a navigation came from. */
export function trackedEntry(name: string) {
  return () => {
    previousRouteName = name;
    return null;
  };
}

/** Screens that only make sense with a session (own data screens): without one, back to login. */
export function sessionEntry(name: RouteName) {
  return () => {
    previousRouteName = name;
    return authStore.getState().token ? null : redirect('/');
  };
}
