import { useSyncExternalStore } from 'react';
import type { SessionUser } from '@vetcall/shared/schemas/auth';
import type { UserType } from '@vetcall/shared/roles';
import { storage } from './storage';

/** docs/product-rules.md#states: the initial access type, before anyone logs in. */
export type AccessType = UserType | 'newCustomer';

interface SessionState {
  token: string | null;
  user: SessionUser | null;
}

let state: SessionState = { token: storage.getToken(), user: storage.getUser() };
const listeners = new Set<() => void>();

function emit(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

export const authStore = {
  getState: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Login stores token and user data in local storage (docs/product-rules.md#states). */
  setSession(token: string, user: SessionUser) {
    storage.setSession(token, user);
    emit({ token, user });
  },
  /** Logout and the navigation guard clear local storage and the session. */
  clear() {
    storage.clear();
    emit({ token: null, user: null });
  },
};

/**
 * The session a screen is drawn with on the server (prerender/public-pages.tsx): a role and no person, so a
 * logged-in screen can be drawn before the app knows who is logged in. The browser never reads it: the app does
 * not hydrate, it replaces the drawing (app/start.tsx).
 */
let drawnSession: SessionState = { token: null, user: null };

export function setDrawnSession(user: SessionUser | null): void {
  drawnSession = { token: null, user };
}

export function useSession(): SessionState & { accessType: AccessType } {
  const current = useSyncExternalStore(authStore.subscribe, authStore.getState, () => drawnSession);
  return { ...current, accessType: current.user?.type ?? 'newCustomer' };
}
