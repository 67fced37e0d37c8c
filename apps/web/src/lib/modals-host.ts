import { useSyncExternalStore } from 'react';

/**
 * Mantine's dialog host (ModalsProvider) with its Modal, focus trap and scroll area is fetched the first time a
 * confirmation is asked for, not with the login page (issue 16). Asking mounts the host (app/providers.tsx);
 * the promise settles once it listens for dialogs.
 */
let requested = false;
const listeners = new Set<() => void>();
let markReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});

export function whenModalsHostReady(): Promise<void> {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  return ready;
}

export const modalsHostListening = (): void => markReady();

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

// On the server (prerender/public-pages.tsx) no dialog has been asked for.
export const useModalsHostRequested = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => requested,
    () => false,
  );
