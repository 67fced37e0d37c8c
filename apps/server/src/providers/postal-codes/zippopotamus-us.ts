/*
 * Zippopotam.us (United States, free): GET {base}/us/{NNNNN}      (base https://api.zippopotam.us)
 *
 * Documentation used: https://www.zippopotam.us/ and https://github.com/zippopotamus/zippopotamus
 * ("Response Format": one code may map to several places).
 *
 * Found, 200:
 *   { "post code": "90210", "country": "United States", "country abbreviation": "US",
 *     "places": [{ "place name": "Beverly Hills", "longitude": "-118.4065", "state": "California",
 *                  "state abbreviation": "CA", "latitude": "34.0901" }] }
 * Unknown code, 404 with the body {}.
 *
 * Mapped: city = places[0]["place name"], state = places[0].state; no street data, so address = ''.
 */
import {
  isRecord,
  malformed,
  type PostalAddress,
  providerGet,
  type ProviderLookupOptions,
  text,
} from './provider-http.ts';

const PROVIDER = 'Zippopotam.us';

export async function lookup(code: string, options: ProviderLookupOptions): Promise<PostalAddress | null> {
  const response = await providerGet(PROVIDER, `${options.baseUrl}/us/${encodeURIComponent(code)}`, options);
  if (response.status === 404) return null;
  if (response.status !== 200) throw malformed(PROVIDER, `HTTP ${response.status}`);

  const body = response.json();
  if (!isRecord(body) || !Array.isArray(body['places'])) throw malformed(PROVIDER, 'no places');
  const place = body['places'][0];
  if (place === undefined) return null;
  if (!isRecord(place)) throw malformed(PROVIDER, 'a place is not an object');
  const city = text(place['place name']);
  const state = text(place['state']);
  if (!city || !state) throw malformed(PROVIDER, 'no place name or state');
  return { city, state, address: '' };
}
