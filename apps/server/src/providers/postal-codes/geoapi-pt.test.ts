import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHttpServer, hang, sendJson, sendText, startFakeHttpServer } from '../../../test/fake-http-server.ts';
import { lookup } from './geoapi-pt.ts';
import { ProviderUnavailable } from './provider-http.ts';

/** GEO API PT's answer for a street code, trimmed of its geometry (pontos, poligono, …) but in its real shape. */
const LISBOA_1000_001 = {
  CP: '1000-001',
  CP4: '1000',
  CP3: '001',
  Distrito: 'Lisboa',
  Concelho: 'Lisboa',
  Localidade: 'Lisboa',
  'Designação Postal': 'LISBOA',
  partes: [
    { Artéria: 'Rua dos Açores', Local: '', Troço: 'Ímpares de 1 a 19', Porta: '', Cliente: '' },
    { Artéria: 'Rua dos Açores', Local: '', Troço: 'Pares de 2 a 24', Porta: '', Cliente: '' },
  ],
  ruas: ['R AÇORES'],
  pontos: [{ id: '1', rua: 'Rua dos Açores', casa: '1', coordenadas: [38.7306, -9.1417] }],
  centro: [38.7306, -9.1417],
  centroide: [38.7306, -9.1417],
  centroDeMassa: [38.7306, -9.1417],
  poligono: [],
  municipio: 'Lisboa',
  codigoineDistrito: '11',
  codigoineMunicipio: '1106',
};

/** A village code: the locality only, no street (Artéria empty), and lists where a prefix spans municipalities. */
const VILLAGE_3150_999 = {
  CP: '3150-999',
  CP4: '3150',
  CP3: '999',
  Distrito: ['Coimbra'],
  Concelho: ['Condeixa-a-Nova'],
  Localidade: 'Anobra',
  'Designação Postal': 'ANOBRA',
  partes: [{ Artéria: '', Local: 'Anobra', Troço: '', Porta: '', Cliente: '' }],
  ruas: [],
};

describe('GEO API PT adapter (GET /cp/{NNNN-NNN}?json=1)', () => {
  let provider: FakeHttpServer;
  beforeAll(async () => {
    provider = await startFakeHttpServer();
  });
  afterAll(async () => {
    await provider.close();
  });

  const options = () => ({ baseUrl: provider.baseUrl, timeoutMs: 1000 });

  it('asks for JSON at /cp/{code} and maps Localidade, Distrito and the first Artéria', async () => {
    provider.handle = (request, response) => {
      if (request.url === '/cp/1000-001?json=1') sendJson(response, 200, LISBOA_1000_001);
      else sendJson(response, 404, { erro: 'Postal Code not found!' });
    };
    const before = provider.requests.length;
    await expect(lookup('1000-001', options())).resolves.toEqual({
      city: 'Lisboa',
      state: 'Lisboa',
      address: 'Rua dos Açores',
    });
    const request = provider.requests[before];
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('/cp/1000-001?json=1');
    expect(request?.headers.accept).toContain('application/json');
  });

  it('gives an empty address for a code with no street, and takes the first of listed values', async () => {
    provider.handle = (_request, response) => sendJson(response, 200, VILLAGE_3150_999);
    await expect(lookup('3150-999', options())).resolves.toEqual({ city: 'Anobra', state: 'Coimbra', address: '' });
  });

  it('answers null for its 404 {"erro": "Postal Code not found!"}', async () => {
    provider.handle = (_request, response) => sendJson(response, 404, { erro: 'Postal Code not found!' });
    await expect(lookup('9999-999', options())).resolves.toBeNull();
  });

  it.each([
    ['a 500', (response: ServerResponse) => sendText(response, 500, 'Internal Server Error')],
    ['a 502 from its proxy', (response: ServerResponse) => sendText(response, 502, '<h1>Bad Gateway</h1>')],
    ['its 429 over the per-IP limit', (response: ServerResponse) => sendText(response, 429, 'Too many requests')],
    ['malformed JSON', (response: ServerResponse) => sendText(response, 200, '{"CP": "1000-001",', 'application/json')],
    [
      'its HTML page instead of JSON',
      (response: ServerResponse) => sendText(response, 200, '<html><body>Lisboa</body></html>'),
    ],
    ['JSON without Localidade or Distrito', (response: ServerResponse) => sendJson(response, 200, { CP: '1000-001' })],
    ['a JSON array', (response: ServerResponse) => sendJson(response, 200, [LISBOA_1000_001])],
    ['an unexpected 403', (response: ServerResponse) => sendJson(response, 403, { erro: 'forbidden' })],
  ])('throws ProviderUnavailable for %s', async (_name, answer) => {
    provider.handle = (_request, response) => answer(response);
    await expect(lookup('1000-001', options())).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('gives up after the timeout when the provider hangs', async () => {
    provider.handle = hang;
    const started = Date.now();
    await expect(lookup('1000-001', options())).rejects.toThrow(/no answer within 1000 ms/);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
