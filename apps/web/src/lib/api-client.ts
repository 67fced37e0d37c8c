import type { ApiErrorBody, ErrorCode, FieldErrorCode } from '@vetcall/shared/error-codes';
import { storage } from './storage';

/** An API answer other than 2xx, with the server's stable code (or `network_error`). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | 'network_error';
  readonly fields: Record<string, FieldErrorCode>;

  constructor(
    status: number,
    code: ErrorCode | 'network_error',
    message: string,
    fields: Record<string, FieldErrorCode> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
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
  const { method = 'GET', body, auth = true, signal } = options;
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = auth ? storage.getToken() : null;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'network_error', 'network error');
  }
  if (response.ok) {
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
  let payload: Partial<ApiErrorBody> = {};
  try {
    payload = (await response.json()) as ApiErrorBody;
  } catch {
    // A proxy or crash page: keep the status only.
  }
  if (response.status === 401 && token) for (const listener of unauthorizedListeners) listener();
  throw new ApiError(
    response.status,
    payload.error ?? (response.status >= 500 ? 'internal_error' : 'validation_failed'),
    payload.message ?? response.statusText,
    payload.fields,
  );
}

/** Sends a multipart form (file uploads) with the bearer token; answers like apiRequest. */
export async function apiUpload<T>(path: string, form: FormData): Promise<T> {
  const token = storage.getToken();
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: form,
    });
  } catch {
    throw new ApiError(0, 'network_error', 'network error');
  }
  if (response.ok) return (await response.json()) as T;
  const payload = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody>;
  throw new ApiError(response.status, payload.error ?? 'internal_error', payload.message ?? '', payload.fields);
}

/**
 * Downloads a file through the authenticated API (the token travels in a header, never in a URL) and
 * saves it under the server's file name.
 */
export async function apiDownload(path: string, fallbackName: string): Promise<void> {
  const token = storage.getToken();
  const response = await fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const payload = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody>;
    throw new ApiError(response.status, payload.error ?? 'internal_error', payload.message ?? '');
  }
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
