import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHttpServer, hang, sendJson, sendText, startFakeHttpServer } from '../../../test/fake-http-server.ts';
import { ProviderUnavailable } from './provider-http.ts';
import { lookup } from './viacep-br.ts';

const SE_01001000 = {
  cep: '01001-000',
  logradouro: 'Praça da Sé',
  complemento: 'lado ímpar',
  unidade: '',
  bairro: 'Sé',
  localidade: 'São Paulo',
  uf: 'SP',
  estado: 'São Paulo',
  regiao: 'Sudeste',
  ibge: '3550308',
  gia: '1004',
  ddd: '11',
  siafi: '7107',
};

/** A city-wide CEP: no street, no neighbourhood. */
const CITY_WIDE_45150000 = {
  cep: '45150-000',
  logradouro: '',
  complemento: '',
  unidade: '',
  bairro: '',
  localidade: 'Poções',
  uf: 'BA',
  estado: 'Bahia',
  regiao: 'Nordeste',
  ibge: '2925204',
  gia: '',
  ddd: '77',
  siafi: '3803',
};

describe('ViaCEP adapter (GET /ws/{8 digits}/json/)', () => {
  let provider: FakeHttpServer;
  beforeAll(async () => {
    provider = await startFakeHttpServer();
  });
  afterAll(async () => {
    await provider.close();
  });

  const options = () => ({ baseUrl: provider.baseUrl, timeoutMs: 1000 });

  it('asks with the 8 digits and maps localidade, uf and "logradouro, bairro"', async () => {
    provider.handle = (request, response) => {
      if (request.url === '/ws/01001000/json/') sendJson(response, 200, SE_01001000);
      else sendText(response, 400, '<h3>Http 400</h3>');
    };
    const before = provider.requests.length;
    await expect(lookup('01001-000', options())).resolves.toEqual({
      city: 'São Paulo',
      state: 'SP',
      address: 'Praça da Sé, Sé',
    });
    expect(provider.requests[before]?.url).toBe('/ws/01001000/json/');
  });

  it('gives an empty address for a city-wide CEP', async () => {
    provider.handle = (_request, response) => sendJson(response, 200, CITY_WIDE_45150000);
    await expect(lookup('45150-000', options())).resolves.toEqual({ city: 'Poções', state: 'BA', address: '' });
  });

  it.each([
    ['{"erro": "true"}', { erro: 'true' }],
    ['{"erro": true}', { erro: true }],
  ])('answers null for its unknown-CEP answer %s', async (_name, body) => {
    provider.handle = (_request, response) => sendJson(response, 200, body);
    await expect(lookup('99999-999', options())).resolves.toBeNull();
  });

  it('answers null for its 400 Bad Request (a CEP that cannot exist)', async () => {
    provider.handle = (_request, response) => sendText(response, 400, '<h3>Http 400</h3><p>Verifique a URL</p>');
    await expect(lookup('99999-999', options())).resolves.toBeNull();
  });

  it.each([
    ['a 500', (response: ServerResponse) => sendText(response, 500, 'Internal Server Error')],
    ['a 503', (response: ServerResponse) => sendText(response, 503, '<h1>Service Unavailable</h1>')],
    ['a 429', (response: ServerResponse) => sendText(response, 429, 'Too Many Requests')],
    [
      'malformed JSON',
      (response: ServerResponse) => sendText(response, 200, '{"cep": "01001-000",', 'application/json'),
    ],
    ['an HTML page with 200', (response: ServerResponse) => sendText(response, 200, '<html>ViaCEP</html>')],
    ['JSON without localidade or uf', (response: ServerResponse) => sendJson(response, 200, { cep: '01001-000' })],
  ])('throws ProviderUnavailable for %s', async (_name, answer) => {
    provider.handle = (_request, response) => answer(response);
    await expect(lookup('01001-000', options())).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('gives up after the timeout when the provider hangs', async () => {
    provider.handle = hang;
    await expect(lookup('01001-000', options())).rejects.toThrow(/no answer within 1000 ms/);
  });
});
