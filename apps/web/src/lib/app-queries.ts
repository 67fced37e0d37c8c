/**
 * The app's TanStack Query client, once a screen that uses it has loaded (app/screen-providers.tsx). Kept here,
 * without TanStack's code, so the root layout, which the login route loads, can empty it when a session ends.
 */
interface AppQueryClient {
  clear(): void;
  isFetching(): number;
  getQueryCache(): { subscribe(listener: () => void): () => void };
}

let current: AppQueryClient | undefined;

export function setAppQueryClient(client: AppQueryClient): void {
  current = client;
}

/** Forgets every cached answer (the session that fetched them has ended). */
export function clearAppQueries(): void {
  current?.clear();
}

/**
 * How long no query may be fetching before the reads count as settled: a read that waits for another's answer
 * (a customer's pets wait for the customer) starts only once the screen has drawn that answer.
 */
const QUIET_MS = 50;

/**
 * Resolves once no query of the app has been fetching for {@link QUIET_MS}, or after `limitMs` whatever is still
 * on its way; at once without a client. `client` is the app's unless given.
 */
export function queriesSettled(limitMs: number, client: AppQueryClient | undefined = current): Promise<void> {
  if (!client) return Promise.resolve();
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(limit);
      clearTimeout(quiet);
      unsubscribe();
      resolve();
    };
    const limit = setTimeout(finish, limitMs);
    // The cache tells of every change of every query: each is one count, and a timer is set or cleared only when
    // fetching stops or starts again.
    const check = () => {
      if (client.isFetching() > 0) {
        clearTimeout(quiet);
        quiet = undefined;
      } else if (quiet === undefined) {
        quiet = setTimeout(finish, QUIET_MS);
      }
    };
    const unsubscribe = client.getQueryCache().subscribe(check);
    check();
  });
}
