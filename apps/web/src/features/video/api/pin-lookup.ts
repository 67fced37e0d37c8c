import { type PinLookup, pinLookupSchema, roomWindowErrorSchema } from '@vetcall/shared/schemas/video';
import { secondsOf } from '../../../lib/api-client';

/** Why a PIN does not open a room now: an error code, and the room's window when the server told it. */
export interface PinRefusal {
  code: string;
  opensAt?: string;
  closesAt?: string;
  /** A 429's Retry-After. */
  retryAfterSeconds?: number;
}

export type PinLookupResult = { ok: true; lookup: PinLookup } | ({ ok: false } & PinRefusal);

/**
 * GET /api/appointments/pin/{pin} (docs/product-rules.md#api; no auth). Outside the room's window the 409 carries when
 * it opens and closes, which the PIN screen shows, so this reads the body itself rather than through
 * apiRequest (whose errors keep only the code).
 */
export async function lookupPin(pin: string, signal?: AbortSignal): Promise<PinLookupResult> {
  let response: Response;
  try {
    response = await fetch(`/api/appointments/pin/${encodeURIComponent(pin)}`, {
      headers: { accept: 'application/json' },
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, code: 'network_error' };
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const parsed = pinLookupSchema.safeParse(body);
    return parsed.success ? { ok: true, lookup: parsed.data } : { ok: false, code: 'internal_error' };
  }
  const window = roomWindowErrorSchema.safeParse(body);
  if (window.success) {
    return { ok: false, code: window.data.error, opensAt: window.data.opens_at, closesAt: window.data.closes_at };
  }
  const code = (body as { error?: unknown } | null)?.error;
  return {
    ok: false,
    code: typeof code === 'string' ? code : response.status >= 500 ? 'internal_error' : 'pin_not_found',
    retryAfterSeconds: secondsOf(response.headers.get('retry-after')),
  };
}
