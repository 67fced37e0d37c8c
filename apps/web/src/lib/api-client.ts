import type { ApiErrorBody, ErrorCode, FieldErrorCode } from '@vetcall/shared/error-codes';
import { takeScreenRead } from './startup-requests';
import { storage } from './storage';

/** An API answer other than 2xx, with the server's stable code (or `network_error`). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | 'network_error';
  readonly fields: Record<string, FieldErrorCode>;
  /** A 429's `Retry-After`, in seconds, when the answer had one. */
  readonly retryAfterSeconds?: number;

  constructor(
    status: number,
    code: ErrorCode | 'network_error',
    message: string,
    fields: Record<string, FieldErrorCode> = {},
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when an authenticated call is refused with 401: the session has ended on the server. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Sends the stored bearer token (default true). */
  auth?: boolean;
  signal?: AbortSignal;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiRequestWithHeaders<T>(path, options)).data;
}

/** apiRequest that also answers the response headers (a bare-array list sends its next cursor in one). */
export async function apiRequestWithHeaders<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  const { method = 'GET', body, auth = true, signal } = options;
  const headers: Record<string, string> = { accept: 'application/json', ...(auth ? bearerHeader() : {}) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await send(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (response.ok) {
    const data = response.status === 204 ? (undefined as T) : ((await response.json()) as T);
    return { data, headers: response.headers };
  }
  if (response.status === 401 && headers.authorization) for (const listener of unauthorizedListeners) listener();
  throw await errorOfResponse(response);
}

/** Sends a multipart form (file uploads) with the bearer token; answers like apiRequest. */
export async function apiUpload<T>(path: string, form: FormData): Promise<T> {
  const response = await send(path, {
    method: 'POST',
    headers: { accept: 'application/json', ...bearerHeader() },
    body: form,
  });
  if (response.ok) return (await response.json()) as T;
  throw await errorOfResponse(response);
}

/**
 * Downloads a file through the authenticated API (the token travels in a header, never in a URL) and
 * saves it under the server's file name.
 */
export async function apiDownload(path: string, fallbackName: string): Promise<void> {
  const response = await send(path, { headers: bearerHeader() });
  if (!response.ok) throw await errorOfResponse(response);
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  const name = encoded ? decodeURIComponent(encoded) : (plain ?? fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The ApiError of an answer other than 2xx, for every way the web app calls the API (fetch here, the
 * XMLHttpRequest of uploads with progress). The body is the API's `{ error, message, fields }`; a proxy's or
 * crash page's body is not, and then the status alone picks the code. `retryAfter` is the answer's
 * `Retry-After` header: every 429 of the API has one, and the person is told when to try again.
 */
export function parseApiError(
  status: number,
  statusText: string,
  bodyText: string,
  retryAfter: string | null = null,
): ApiError {
  let payload: Partial<ApiErrorBody> = {};
  try {
    payload = (JSON.parse(bodyText) as Partial<ApiErrorBody> | null) ?? {};
  } catch {
    // Not JSON: keep the status only.
  }
  const code = payload.error ?? codeOfStatus(status);
  return new ApiError(status, code, payload.message ?? statusText, payload.fields, secondsOf(retryAfter));
}

/** `Retry-After` as seconds from now: a number of seconds, or an HTTP date. */
export function secondsOf(retryAfter: string | null): number | undefined {
  const text = retryAfter?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The call never got an answer (offline, DNS, connection reset, aborted upload). */
export const networkError = (message = 'network error') => new ApiError(0, 'network_error', message);

/** Codes for answers without the API's body. Only uploads are large enough to meet a proxy's body limit. */
function codeOfStatus(status: number): ErrorCode {
  if (status === 413) return 'files_too_large';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'too_many_requests';
  return status >= 500 ? 'internal_error' : 'validation_failed';
}

/** The stored session's bearer token as a header, for calls that do not go through apiRequest. */
export function bearerHeader(): Record<string, string> {
  const token = storage.getToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

async function send(path: string, init: RequestInit): Promise<Response> {
  // A read the entry started for the screen being opened (lib/startup-requests.ts) is used instead of a new one.
  const authorization = (init.headers as Record<string, string> | undefined)?.authorization;
  const early = init.method === 'GET' ? takeScreenRead(path, authorization) : undefined;
  try {
    return await (early ?? fetch(path, init));
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw networkError();
  }
}

async function errorOfResponse(response: Response): Promise<ApiError> {
  const body = await response.text().catch(() => '');
  return parseApiError(response.status, response.statusText, body, response.headers.get('retry-after'));
}
