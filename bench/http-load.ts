/**
 * Driving one request with autocannon (pipelining 1) after a warm-up that also proves the request works:
 * a request that does not answer 2xx is reported with its status and body instead of being timed.
 */
import { fork } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';

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

/** The bytes of the answer's body as sent (compressed when it is), for one GET of `url`. */
export function answerBytes(url: string, headers: Headers): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** One request to drive: where, and with which headers. */
export interface Side {
  url: string;
  headers: Headers;
}

/** One timed autocannon run with every response's latency kept (for percentiles over several runs). */
interface Run {
  requests: number;
  seconds: number;
  latencies: Float64Array;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Map<string, number>;
}

/** What bench/load-generator.mjs sends back. */
type GeneratorAnswer = { error: string } | { run: Omit<Run, 'statuses'> & { statuses: Record<string, number> } };

const LOAD_GENERATOR = path.join(import.meta.dirname, 'load-generator.mjs');

/** One run, driven from a fresh process (bench/load-generator.mjs says why). */
async function timedRun(side: Side, connections: number, seconds: number): Promise<Run> {
  const child = fork(LOAD_GENERATOR, { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const answer = await new Promise<GeneratorAnswer>((resolve, reject) => {
      child.once('message', (message) => resolve(message as GeneratorAnswer));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the load generator exited with ${code} before answering`)));
      child.send({ url: side.url, headers: side.headers, connections, seconds });
    });
    if ('error' in answer) throw new Error(answer.error);
    return { ...answer.run, statuses: new Map(Object.entries(answer.run.statuses)) };
  } finally {
    child.kill();
  }
}

function percentile(sorted: Float64Array, share: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1));
  return Math.round(sorted[index]! * 100) / 100;
}

/** The runs of one side as one result: req/s over their whole time, percentiles over every response. */
function combine(runs: Run[]): LoadResult {
  const sorted = new Float64Array(runs.reduce((sum, run) => sum + run.latencies.length, 0));
  let offset = 0;
  for (const run of runs) {
    sorted.set(run.latencies, offset);
    offset += run.latencies.length;
  }
  sorted.sort();
  const statuses = new Map<string, number>();
  for (const run of runs)
    for (const [status, count] of run.statuses) statuses.set(status, (statuses.get(status) ?? 0) + count);
  const errors = runs.reduce((sum, run) => sum + run.errors, 0);
  const timeouts = runs.reduce((sum, run) => sum + run.timeouts, 0);
  const detail = [
    ...[...statuses].map(([status, count]) => `${count} × ${status}`),
    ...(errors > 0 ? [`${errors} connection errors (${timeouts} timeouts)`] : []),
  ];
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  return {
    ...(detail.length > 0 ? { errorDetail: detail.join(', ') } : {}),
    reqPerSec: seconds > 0 ? Math.round(requests / seconds) : 0,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    requests,
    errors: runs.reduce((sum, run) => sum + run.non2xx, 0) + errors,
  };
}

/** Proves a request answers 2xx `warmups` times; the failure, or undefined. */
async function proveAnswers(side: Side, warmups: number): Promise<string | undefined> {
  try {
    for (let i = 0; i < Math.max(1, warmups); i += 1) await getJson(side.url, side.headers);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const failed = (failure: string): LoadResult => ({ reqPerSec: 0, p50: 0, p99: 0, requests: 0, errors: 1, failure });

export async function load(url: string, headers: Headers, options: LoadOptions): Promise<LoadResult> {
  const side = { url, headers };
  const failure = await proveAnswers(side, options.warmups);
  if (failure) return failed(failure);
  if (options.warmupSeconds) await timedRun(side, options.connections, options.warmupSeconds);
  return combine([await timedRun(side, options.connections, options.seconds)]);
}

export interface PairedResult {
  first: LoadResult;
  second: LoadResult;
  /** The median over the rounds of the second's req/s ÷ the first's in the same round. */
  ratio: number;
  /** Each round's req/s of both, in the order measured. */
  rounds: { first: number; second: number }[];
}

/**
 * Two requests measured side by side: `options.seconds` of each, cut into `rounds` rounds that alternate
 * them (first-second, then second-first, so neither always runs on the warmer machine). On a shared 2-core
 * machine the capacity moves by a fifth within minutes (a hello-world did 15 k and 25 k req/s in one
 * bench), so two runs one after the other compare the machine's drift as much as the requests; rounds a
 * second or two apart drift together. Each side's req/s is over all its rounds; its p50 and p99 are over
 * every response of every round.
 */
export async function loadPaired(
  first: Side,
  second: Side,
  options: LoadOptions,
  rounds: number,
): Promise<PairedResult> {
  const failure = (await proveAnswers(first, options.warmups)) ?? (await proveAnswers(second, options.warmups));
  if (failure) return { first: failed(failure), second: failed(failure), ratio: 0, rounds: [] };
  if (options.warmupSeconds) {
    await timedRun(first, options.connections, options.warmupSeconds);
    await timedRun(second, options.connections, options.warmupSeconds);
  }
  const seconds = options.seconds / rounds;
  const firstRuns: Run[] = [];
  const secondRuns: Run[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ([first, second] as const) : ([second, first] as const);
    for (const side of order) {
      const run = await timedRun(side, options.connections, seconds);
      (side === first ? firstRuns : secondRuns).push(run);
    }
  }
  const perSecond = (run: Run) => (run.seconds > 0 ? run.requests / run.seconds : 0);
  const ratios = firstRuns
    .map((run, index) => (perSecond(run) > 0 ? perSecond(secondRuns[index]!) / perSecond(run) : 0))
    .sort((a, b) => a - b);
  const middle = ratios.length / 2;
  const ratio = ratios.length % 2 === 1 ? ratios[Math.floor(middle)]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
  return {
    first: combine(firstRuns),
    second: combine(secondRuns),
    ratio,
    rounds: firstRuns.map((run, index) => ({
      first: Math.round(perSecond(run)),
      second: Math.round(perSecond(secondRuns[index]!)),
    })),
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
