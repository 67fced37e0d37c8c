/**
 * Driving one request with autocannon (pipelining 1) after a warm-up that also proves the request works:
 * a request that does not answer 2xx is reported with its status and body instead of being timed.
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** Requests sent one by one before the timed run: they must all answer 2xx. */
  warmups: number;
  /**
   * Seconds of load at the same connections before the timed run, not counted: a process just started, or a
   * request not yet asked, is measured warm, as a server that has been running serves it.
   */
  warmupSeconds?: number;
}

export interface LoadResult {
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  /** Answers other than 2xx, connection errors and timeouts. */
  errors: number;
  /** What the errors were: status codes other than 2xx with their counts, connection errors, timeouts. */
  errorDetail?: string;
  /** Why the request was not timed (its warm-up failed), or undefined. */
  failure?: string;
}

export type Headers = Record<string, string>;

/** GET `url`; its JSON, or an Error saying what came back. */
export async function getJson<T>(url: string, headers: Headers = {}): Promise<T> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
  const body = await response.text();
  if (!response.ok) throw new Error(`GET ${new URL(url).pathname}: ${response.status} ${body.slice(0, 300)}`);
  return JSON.parse(body) as T;
}

export async function logIn(base: string, email: string, password: string): Promise<Headers> {
  const response = await fetch(`${base}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${body.slice(0, 300)}`);
  return { authorization: `Bearer ${(JSON.parse(body) as { token: string }).token}` };
}

export async function load(url: string, headers: Headers, options: LoadOptions): Promise<LoadResult> {
  try {
    for (let i = 0; i < Math.max(1, options.warmups); i += 1) await getJson(url, headers);
  } catch (error) {
    const failure = error instanceof Error ? error.message : String(error);
    return { reqPerSec: 0, p50: 0, p99: 0, requests: 0, errors: 1, failure };
  }
  const run = (duration: number) =>
    autocannon({ url, headers, connections: options.connections, duration, pipelining: 1 });
  if (options.warmupSeconds) await run(options.warmupSeconds);
  const result = await run(options.seconds);
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, stats]) => `${stats.count ?? 0} × ${status}`);
  const detail = [
    ...statuses,
    ...(result.errors > 0 ? [`${result.errors} connection errors (${result.timeouts} timeouts)`] : []),
  ];
  return {
    ...(detail.length > 0 ? { errorDetail: detail.join(', ') } : {}),
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.non2xx + result.errors,
  };
}

/**
 * The cursor of a deep, full page: `next_cursor` followed from the first page for up to `pages` pages, but
 * never onto the list's last page (it may be short), so the page timed holds APPOINTMENT_PAGE_SIZE rows at
 * every volume. Null (the first page) when the list has a single page.
 */
export async function deepCursor(
  url: string,
  headers: Headers,
  pages: number,
): Promise<{ cursor: string | null; depth: number }> {
  let deepest: { cursor: string | null; depth: number } = { cursor: null, depth: 0 };
  let cursor: string | null = null;
  for (let depth = 0; depth <= pages; depth += 1) {
    const page: { next_cursor: string | null } = await getJson(withCursor(url, cursor), headers);
    if (!page.next_cursor) break;
    // More follow: this page is full.
    deepest = { cursor, depth };
    cursor = page.next_cursor;
  }
  return deepest;
}

export function withCursor(url: string, cursor: string | null): string {
  if (!cursor) return url;
  return `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
}
