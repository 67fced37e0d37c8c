import { onTestFinished, vi } from 'vitest';
import type { z } from 'zod';
import { type ApiErrorBody, ERROR_CODES } from '@vetcall/shared/error-codes';

/**
 * The server at the network boundary for component tests, held to the API contract.
 *
 * A test declares each route's answer together with the shared zod response schema of that route
 * (`@vetcall/shared/schemas/*`); the answer is parsed with the schema before it is sent, exactly as the
 * server's serializer does. A fake that drifts from the contract (a missing or renamed field, a wrong type)
 * fails the test instead of quietly testing a component against a payload the server never sends; fields
 * the schema does not know are stripped, as the server strips them.
 *
 * ```ts
 * const api = fakeApi()
 *   .answer('GET', '/api/products/en', z.array(productSchema), products)
 *   .answer('PUT', /^\/api\/products\/price\/(\d+)/, productSchema, ({ match, body }) => ...)
 *   .refuse('DELETE', /^\/api\/products\//, 409, { error: 'error_removing_product', message: 'x' });
 * expect(api.calls).toContainEqual({ method: 'PUT', url: '/api/products/price/1?lang=en', body: { price: 27.5 } });
 * ```
 *
 * A string path matches the URL with or without its query string; a RegExp is tested on the whole URL.
 * Routes declared later win, so a shared `fakeServer()` can be overridden in one test. Unknown routes
 * answer 404 `not_found`. `fetch` is spied with `vi.spyOn`, so `vi.restoreAllMocks()` removes the fake.
 */
export function fakeApi() {
  const routes: Route[] = [];
  const calls: FakeCall[] = [];
  const contractErrors: unknown[] = [];
  failTestOnContractErrors(contractErrors);

  const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : (init?.body ?? undefined);
    calls.push({ method, url, body });
    for (const route of [...routes].reverse()) {
      const match = matchRoute(route, method, url);
      if (!match) continue;
      try {
        return await route.respond({ method, url, body, match });
      } catch (error) {
        if (!(error instanceof NetworkFailure)) contractErrors.push(error);
        throw error;
      }
    }
    return jsonResponse(404, { error: 'not_found', message: `${method} ${url}` });
  });

  const api = {
    /** Every request the component made, in order; JSON bodies parsed. */
    calls,
    /** The URLs of `calls`, at the time of reading. */
    get urls() {
      return calls.map((call) => call.url);
    },
    fetch: fetchSpy,
    /**
     * Answers `method path` with `data` (or what `answer(request)` returns), parsed with `schema` first.
     * The handler may return `refusal(status, body)` to answer with an error instead.
     */
    answer<S extends z.ZodType>(
      method: HttpMethod,
      path: string | RegExp,
      schema: S,
      data: z.input<S> | ((request: FakeRequest) => z.input<S> | Refusal),
      options: { status?: number } = {},
    ) {
      // Static data is checked now, so a drifted fake fails where it is declared.
      if (typeof data !== 'function') schema.parse(data);
      routes.push({
        method,
        path,
        respond: (request) => {
          const result = typeof data === 'function' ? (data as (request: FakeRequest) => unknown)(request) : data;
          if (result instanceof Refusal) return refusalResponse(result);
          const parsed = parseAnswer(schema, result, `${method} ${request.url}`);
          return parsed === undefined
            ? new Response(null, { status: 204 })
            : jsonResponse(options.status ?? 200, parsed);
        },
      });
      return api;
    },
    /**
     * Answers `method path` with an API error body (`{ error: code, message, fields? }`) and `headers` (a 429
     * needs its `retry-after`, as the API sends one with every 429).
     */
    refuse(method: HttpMethod, path: string | RegExp, status: number, body: ErrorAnswer, headers?: ErrorHeaders) {
      routes.push({ method, path, respond: () => refusalResponse(refusal(status, body, headers)) });
      return api;
    },
    /** Answers `method path` with a Response built by the test, for what has no JSON contract (files). */
    raw(method: HttpMethod, path: string | RegExp, respond: (request: FakeRequest) => Response | Promise<Response>) {
      routes.push({ method, path, respond });
      return api;
    },
    /** `method path` never answers: fetch rejects as it does offline. */
    networkFailure(method: HttpMethod, path: string | RegExp) {
      routes.push({
        method,
        path,
        respond: () => Promise.reject(new NetworkFailure('Failed to fetch')),
      });
      return api;
    },
  };
  return api;
}

export type FakeApi = ReturnType<typeof fakeApi>;

/** An error answer a route handler returns instead of data. */
export function refusal(status: number, body: ErrorAnswer, headers: ErrorHeaders = {}): Refusal {
  return new Refusal(status, body, headers);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface FakeCall {
  method: string;
  url: string;
  body: unknown;
}

export interface FakeRequest extends FakeCall {
  /** The RegExp match of the route (the whole URL for a string path). */
  match: RegExpExecArray;
}

/** The API's error body; some codes carry more (the video room's `opens_at`/`closes_at`). */
type ErrorAnswer = ApiErrorBody & Record<string, unknown>;
type ErrorHeaders = { 'retry-after'?: string };

interface Route {
  method: HttpMethod;
  path: string | RegExp;
  respond: (request: FakeRequest) => Response | Promise<Response>;
}

/** What `refusal()` makes; a handler returns it instead of data. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly body: ErrorAnswer,
    readonly headers: ErrorHeaders = {},
  ) {}
}

/** A fake answer that breaks the API contract. */
class ContractError extends Error {
  constructor(message: string) {
    super(`fake-api: ${message}`);
  }
}

/** fetch's own error when the network fails; deliberate, so it does not fail the test. */
class NetworkFailure extends TypeError {}

function matchRoute(route: Route, method: string, url: string): RegExpExecArray | null {
  if (route.method !== method) return null;
  if (route.path instanceof RegExp) return route.path.exec(url);
  const [pathOnly] = url.split('?');
  return url === route.path || pathOnly === route.path ? (/^.*$/s.exec(url) as RegExpExecArray) : null;
}

function parseAnswer(schema: z.ZodType, data: unknown, route: string): unknown {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new ContractError(`the answer to ${route} does not match its response schema:\n${result.error.message}`);
}

function refusalResponse({ status, body, headers }: Refusal): Response {
  if (status < 400) throw new ContractError(`a refusal needs a 4xx/5xx status, got ${status}`);
  if (!(ERROR_CODES as readonly string[]).includes(body.error)) {
    throw new ContractError(`'${body.error}' is not one of the API's error codes`);
  }
  if (status === 429 && !headers['retry-after']) throw new ContractError('every 429 of the API has a retry-after');
  return jsonResponse(status, body, headers);
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/**
 * The component under test may swallow a rejected fetch (the API client turns it into `network_error`),
 * so a contract error is also reported when the test ends.
 */
function failTestOnContractErrors(errors: unknown[]) {
  try {
    onTestFinished(() => {
      if (errors.length > 0) throw errors[0];
    });
  } catch {
    // Called outside a running test (e.g. at module level): the rejected fetch is the only report.
  }
}
