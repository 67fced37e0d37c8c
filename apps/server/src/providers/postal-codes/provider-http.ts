/** What every postal-code adapter answers for a code that exists. */
export interface PostalAddress {
  city: string;
  state: string;
  /** The street, or '' when the provider has none for the code. */
  address: string;
}

export interface ProviderLookupOptions {
  /** The provider's origin, without a trailing slash (config.postalCodes.*Url). */
  baseUrl: string;
  apiKey?: string;
  /** The caller's signal, combined with the timeout. */
  signal?: AbortSignal;
  /** Defaults to PROVIDER_TIMEOUT_MS; tests pass a short one. */
  timeoutMs?: number;
}

/** Resolves to the address, or null when the provider says the code does not exist. */
export type PostalCodeAdapter = (code: string, options: ProviderLookupOptions) => Promise<PostalAddress | null>;

/** The limit on one provider call, body included. */
export const PROVIDER_TIMEOUT_MS = 3000;

/** Bodies larger than this are not a postal-code answer. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * The provider could not give an answer: network error, timeout, 5xx, 429, an unexpected status or a
 * malformed body. Never cached; the form lets the person type the fields.
 */
export class ProviderUnavailable extends Error {
  readonly provider: string;

  constructor(provider: string, message: string, options: { cause?: unknown } = {}) {
    super(`${provider}: ${message}`, { cause: options.cause });
    this.name = 'ProviderUnavailable';
    this.provider = provider;
  }
}

export interface ProviderResponse {
  status: number;
  /** The body parsed as JSON; throws ProviderUnavailable when it is not JSON. */
  json(): unknown;
}

/**
 * GETs a provider URL within the timeout. Network failures, timeouts, 5xx and 429 throw
 * ProviderUnavailable; every other status is returned for the adapter to interpret.
 */
export async function providerGet(
  provider: string,
  url: string,
  options: Pick<ProviderLookupOptions, 'signal' | 'timeoutMs'>,
): Promise<ProviderResponse> {
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'follow' });
    status = response.status;
    const declared = Number(response.headers.get('content-length'));
    if (declared > MAX_BODY_BYTES) {
      await response.body?.cancel();
      throw new ProviderUnavailable(provider, `answer too large (${declared} bytes)`);
    }
    text = await response.text();
  } catch (error) {
    if (error instanceof ProviderUnavailable) throw error;
    const reason = timeout.aborted
      ? `no answer within ${timeoutMs} ms`
      : options.signal?.aborted
        ? 'request aborted'
        : 'unreachable';
    throw new ProviderUnavailable(provider, reason, { cause: error });
  }
  if (status >= 500 || status === 429) throw new ProviderUnavailable(provider, `answered HTTP ${status}`);
  if (text.length > MAX_BODY_BYTES) throw new ProviderUnavailable(provider, 'answer too large');
  return {
    status,
    json() {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new ProviderUnavailable(provider, `answered HTTP ${status} with a body that is not JSON`, {
          cause: error,
        });
      }
    },
  };
}

export function malformed(provider: string, what: string): ProviderUnavailable {
  return new ProviderUnavailable(provider, `malformed answer: ${what}`);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A trimmed string field; providers sometimes give a list where one value is usual, so the first is taken. */
export function text(value: unknown): string {
  if (Array.isArray(value)) return text(value[0]);
  return typeof value === 'string' ? value.trim() : '';
}
