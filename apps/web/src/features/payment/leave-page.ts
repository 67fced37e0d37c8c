/**
 * Only our own pages are followed: the server answers paths on our host, and anything else would make the
 * checkout an open redirect.
 */
export function sameOriginTarget(url: string, fallback: string): string {
  try {
    const target = new URL(url, window.location.origin);
    return target.origin === window.location.origin ? `${target.pathname}${target.search}${target.hash}` : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Leaving the app for a full page load, as a payment provider's page does (the next page starts afresh). An
 * object's method, so tests can watch it with `vi.spyOn(pageExit, 'leave')`: jsdom's location cannot be spied on.
 */
export const pageExit = {
  leave(url: string, fallback: string): void {
    window.location.assign(sameOriginTarget(url, fallback));
  },
};
