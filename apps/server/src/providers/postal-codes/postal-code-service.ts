import {
  isPostalCountry,
  isValidPostalCode,
  normalizePostalCode,
  type PostalCodeLookupResponse,
  type PostalCountry,
} from '@vetcall/shared/schemas/postal-code';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import * as cttPt from './ctt-pt.ts';
import * as geoApiPt from './geoapi-pt.ts';
import { type PostalAddress, type ProviderLookupOptions, ProviderUnavailable } from './provider-http.ts';
import * as viaCepBr from './viacep-br.ts';
import * as zippopotamusUs from './zippopotamus-us.ts';

export type PostalCodeLookupResult =
  | { status: 'found'; value: PostalCodeLookupResponse }
  | { status: 'not_found'; country: PostalCountry; postal_code: string }
  /** Unknown country, or a code that does not fit its country: no provider was called. */
  | { status: 'invalid' }
  /** The provider could not answer; `error` says why, for the log. Never cached. */
  | { status: 'unavailable'; error: ProviderUnavailable };

export interface PostalCodeLookup {
  lookup(country: string, code: string): Promise<PostalCodeLookupResult>;
}

export const FOUND_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const NOT_FOUND_TTL_MS = 60 * 60 * 1000;
export const MAX_CACHE_ENTRIES = 5000;

type Cached = Extract<PostalCodeLookupResult, { status: 'found' | 'not_found' }>;

/**
 * docs/product-rules.md#validation Postal code: validates and normalizes the code, asks the country's provider
 * (Portugal: GEO API PT or CTT per POSTAL_PT_PROVIDER) and keeps answers in process memory — found codes for 7 days,
 * unknown ones for an hour, at most MAX_CACHE_ENTRIES, the oldest dropped first. Concurrent lookups of
 * one code share a single provider call.
 */
export function createPostalCodeLookup(
  config: Config['postalCodes'],
  clock: Clock,
  options: { timeoutMs?: number; maxEntries?: number } = {},
): PostalCodeLookup {
  const maxEntries = options.maxEntries ?? MAX_CACHE_ENTRIES;
  const cache = new Map<string, { result: Cached; expiresAt: number }>();
  const inFlight = new Map<string, Promise<PostalCodeLookupResult>>();

  function ask(country: PostalCountry, code: string): Promise<PostalAddress | null> {
    const common: Pick<ProviderLookupOptions, 'timeoutMs'> = { timeoutMs: options.timeoutMs };
    switch (country) {
      case 'PT':
        return config.portugalProvider === 'ctt'
          ? cttPt.lookup(code, { ...common, baseUrl: config.portugalUrl, apiKey: config.cttApiKey })
          : geoApiPt.lookup(code, { ...common, baseUrl: config.portugalUrl });
      case 'US':
        return zippopotamusUs.lookup(code, { ...common, baseUrl: config.unitedStatesUrl });
      case 'BR':
        return viaCepBr.lookup(code, { ...common, baseUrl: config.brazilUrl });
    }
  }

  function remember(key: string, result: Cached) {
    const ttl = result.status === 'found' ? FOUND_TTL_MS : NOT_FOUND_TTL_MS;
    cache.delete(key);
    while (cache.size >= maxEntries) {
      const oldest = cache.keys().next();
      if (oldest.done) break;
      cache.delete(oldest.value);
    }
    cache.set(key, { result, expiresAt: clock.now().getTime() + ttl });
  }

  async function fetchAndRemember(key: string, country: PostalCountry, code: string): Promise<PostalCodeLookupResult> {
    try {
      const address = await ask(country, code);
      const result: Cached = address
        ? { status: 'found', value: { country, postal_code: code, ...address } }
        : { status: 'not_found', country, postal_code: code };
      remember(key, result);
      return result;
    } catch (error) {
      if (error instanceof ProviderUnavailable) return { status: 'unavailable', error };
      throw error;
    }
  }

  return {
    async lookup(rawCountry, rawCode) {
      const country = rawCountry.trim().toUpperCase();
      if (!isPostalCountry(country)) return { status: 'invalid' };
      const code = normalizePostalCode(country, rawCode);
      if (!isValidPostalCode(country, code)) return { status: 'invalid' };

      const key = `${country}:${code}`;
      const cached = cache.get(key);
      if (cached) {
        if (cached.expiresAt > clock.now().getTime()) return cached.result;
        cache.delete(key);
      }

      const pending = inFlight.get(key);
      if (pending) return pending;
      const request = fetchAndRemember(key, country, code).finally(() => inFlight.delete(key));
      inFlight.set(key, request);
      return request;
    },
  };
}
