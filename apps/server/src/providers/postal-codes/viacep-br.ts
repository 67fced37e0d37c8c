/*
 * ViaCEP (Brazil, free): GET {base}/ws/{8 digits}/json/      (base https://viacep.com.br)
 *
 * Documentation used: https://viacep.com.br/ ("Acessando o webservice de CEP", "Validação do CEP")
 * and https://viacep.com.br/exemplo/javascript/
 *
 * Found, 200:
 *   { "cep": "01001-000", "logradouro": "Praça da Sé", "complemento": "lado ímpar", "unidade": "",
 *     "bairro": "Sé", "localidade": "São Paulo", "uf": "SP", "estado": "São Paulo", "regiao": "Sudeste",
 *     "ibge": "3550308", "gia": "1004", "ddd": "11", "siafi": "7107" }
 *   A city-wide CEP (e.g. 45150-000) has logradouro and bairro empty.
 * Unknown code of the right form, 200: { "erro": "true" } (older deployments: { "erro": true }).
 * Code of the wrong form (not 8 digits), 400 Bad Request (body not relied on): it cannot exist.
 *
 * Mapped: city = localidade, state = uf, address = "logradouro, bairro" (either may be missing).
 */
import {
  isRecord,
  malformed,
  type PostalAddress,
  providerGet,
  type ProviderLookupOptions,
  text,
} from './provider-http.ts';

const PROVIDER = 'ViaCEP';

export async function lookup(code: string, options: ProviderLookupOptions): Promise<PostalAddress | null> {
  const digits = code.replace('-', '');
  const response = await providerGet(PROVIDER, `${options.baseUrl}/ws/${encodeURIComponent(digits)}/json/`, options);
  if (response.status === 400) return null;
  if (response.status !== 200) throw malformed(PROVIDER, `HTTP ${response.status}`);

  const body = response.json();
  if (!isRecord(body)) throw malformed(PROVIDER, 'not an object');
  if (body['erro'] === true || body['erro'] === 'true') return null;
  const city = text(body['localidade']);
  const state = text(body['uf']);
  if (!city || !state) throw malformed(PROVIDER, 'no localidade or uf');
  const address = [text(body['logradouro']), text(body['bairro'])].filter(Boolean).join(', ');
  return { city, state, address };
}
