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
