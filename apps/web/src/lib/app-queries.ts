/**
 * The app's TanStack Query client, once a screen that uses it has loaded (app/screen-providers.tsx). Kept here,
 * without TanStack's code, so the root layout, which the login route loads, can empty it when a session ends.
 */
let current: { clear(): void } | undefined;

export function setAppQueryClient(client: { clear(): void }): void {
  current = client;
}

/** Forgets every cached answer (the session that fetched them has ended). */
export function clearAppQueries(): void {
  current?.clear();
}
