/*
 * CTT Código Postal API (Portugal, needs a key; POSTAL_PT_PROVIDER=ctt, CTT_API_KEY):
 *   GET {base}/api/v1/{key}/{NNNN-NNN}      (base https://www.cttcodigopostal.pt)
 *
 * Documentation used: https://www.cttcodigopostal.pt/api (URL form; the key is a path segment). The
 * record fields below were checked against public clients of this API (typed DTOs with exactly these
 * keys), since the page shows no full answer.
 *
 * Found, 200: an array with one record per street segment of the code, e.g.
 *   [{ "morada": "Rua dos Açores", "porta": "", "localidade": "Lisboa", "freguesia": "Arroios",
 *      "concelho": "Lisboa", "distrito": "Lisboa", "latitude": "38.7", "longitude": "-9.1",
 *      "codigo-postal": "1000-001", "info-local": "", "codigo-arteria": "…",
 *      "concelho-codigo": 6, "distrito-codigo": 11 }]
 * Unknown code, 200: [].
 * Anything else (a refused or exhausted key, an error object instead of an array, 5xx, 429 over the
 * per-minute quota) is treated as unavailable.
 *
 * Mapped: city = localidade (else concelho), state = distrito, address = the first morada ('' if none).
 */
import {
  isRecord,
  malformed,
  type PostalAddress,
  providerGet,
  type ProviderLookupOptions,
  ProviderUnavailable,
  text,
} from './provider-http.ts';

const PROVIDER = 'CTT';

export async function lookup(code: string, options: ProviderLookupOptions): Promise<PostalAddress | null> {
  if (!options.apiKey) throw new ProviderUnavailable(PROVIDER, 'no API key configured (CTT_API_KEY)');
  const url = `${options.baseUrl}/api/v1/${encodeURIComponent(options.apiKey)}/${encodeURIComponent(code)}`;
  const response = await providerGet(PROVIDER, url, options);
  if (response.status !== 200) throw malformed(PROVIDER, `HTTP ${response.status}`);

  const body = response.json();
  if (!Array.isArray(body)) throw malformed(PROVIDER, 'not an array of records');
  if (body.length === 0) return null;
  const records = body.filter(isRecord);
  const first = records[0];
  if (!first) throw malformed(PROVIDER, 'records are not objects');

  const city = text(first['localidade']) || text(first['concelho']);
  const state = text(first['distrito']);
  if (!city || !state) throw malformed(PROVIDER, 'no localidade or distrito');
  const street = records.map((record) => text(record['morada'])).find(Boolean) ?? '';
  return { city, state, address: street };
}
