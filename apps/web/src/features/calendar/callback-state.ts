import { normalizeLocale, type Locale } from '@vetcall/shared/locales';

/**
 * docs/product-rules.md#calendar-callback: the state of the calendar authorisation, a space-separated list of key:value
 * pairs.
 */
export interface CallbackState {
  vetId: number | undefined;
  lang: Locale | undefined;
  access: string | undefined;
}

export function parseCallbackState(state: string | null): CallbackState {
  const pairs = new Map<string, string>();
  for (const part of (state ?? '').split(/\s+/)) {
    const separator = part.indexOf(':');
    if (separator > 0) pairs.set(part.slice(0, separator), part.slice(separator + 1));
  }
  const vetId = pairs.get('vet_id');
  return {
    vetId: vetId && /^\d{1,9}$/.test(vetId) && Number(vetId) > 0 ? Number(vetId) : undefined,
    lang: normalizeLocale(pairs.get('lang') ?? null) ?? undefined,
    access: pairs.get('access') || undefined,
  };
}

/** The state of docs/product-rules.md#api as the authorize URL carries it. */
export function formatCallbackState(vetId: number, lang: Locale, access: string): string {
  return `vet_id:${vetId} lang:${lang} access:${access}`;
}
