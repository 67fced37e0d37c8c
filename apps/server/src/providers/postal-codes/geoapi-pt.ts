/*
 * GEO API PT (Portugal, free, the default): GET {base}/cp/{NNNN-NNN}?json=1
 *
 * Documentation used:
 *   https://www.geoapi.pt/ and https://github.com/geoapi-pt/main/blob/main/docs/routes.md (the /cp route;
 *     JSON with ?json=1 or `Accept: application/json`, and always on the json.geoapi.pt host)
 *   https://github.com/geoapi-pt/main/blob/main/src/server/routes/cp.js and
 *     .../src/server/middlewares/sendData.js (what the route answers, errors included)
 *
 * Found, 200: one object, e.g.
 *   { "CP": "1000-001", "CP4": "1000", "CP3": "001", "Distrito": "Lisboa", "Concelho": "Lisboa",
 *     "Localidade": "Lisboa", "Designação Postal": "LISBOA",
 *     "partes": [{ "Artéria": "Rua dos Açores", "Local": "", "Troço": "Ímpares de 1 a 19", "Porta": "", "Cliente": "" }],
 *     "ruas": ["R AÇORES"], "pontos": [...], "centro": [...], "poligono": [...], ... }
 *   Concelho and Distrito may be lists for a 4-digit prefix spanning several municipalities.
 * Unknown code, 404: { "erro": "Postal Code not found!" } (the same 404 for a code of the wrong form).
 * Over the per-IP limit: 429.
 *
 * Mapped: city = Localidade (else Designação Postal, else Concelho), state = Distrito, address = the
 * first Artéria of `partes` ('' when there is none, as for codes of a whole village).
 */
import {
  isRecord,
  malformed,
  type PostalAddress,
  providerGet,
  type ProviderLookupOptions,
  text,
} from './provider-http.ts';

const PROVIDER = 'GEO API PT';

export async function lookup(code: string, options: ProviderLookupOptions): Promise<PostalAddress | null> {
  const url = `${options.baseUrl}/cp/${encodeURIComponent(code)}?json=1`;
  const response = await providerGet(PROVIDER, url, options);
  if (response.status === 404) return null;
  if (response.status !== 200) throw malformed(PROVIDER, `HTTP ${response.status}`);

  const body = response.json();
  if (!isRecord(body)) throw malformed(PROVIDER, 'not an object');
  const city = text(body['Localidade']) || text(body['Designação Postal']) || text(body['Concelho']);
  const state = text(body['Distrito']);
  if (!city || !state) throw malformed(PROVIDER, 'no Localidade or Distrito');

  const parts = Array.isArray(body['partes']) ? body['partes'] : [];
  const street = parts.map((part) => (isRecord(part) ? text(part['Artéria']) : '')).find(Boolean) ?? '';
  return { city, state, address: street };
}
