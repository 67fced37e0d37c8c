import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHttpServer, hang, sendJson, sendText, startFakeHttpServer } from '../../../test/fake-http-server.ts';
import { lookup } from './ctt-pt.ts';
import { ProviderUnavailable } from './provider-http.ts';

const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

/** CTT's answer: one record per street segment of the code. */
const LISBOA_1000_001 = [
  {
    morada: 'Rua dos Açores',
    porta: '1 a 19',
    localidade: 'Lisboa',
    freguesia: 'Arroios',
    concelho: 'Lisboa',
    distrito: 'Lisboa',
    latitude: '38.7306',
    longitude: '-9.1417',
    'codigo-postal': '1000-001',
    'info-local': '',
    'codigo-arteria': '1106A0001',
    'concelho-codigo': 6,
    'distrito-codigo': 11,
  },
  {
    morada: 'Rua dos Açores',
    porta: '2 a 24',
    localidade: 'Lisboa',
    freguesia: 'Arroios',
    concelho: 'Lisboa',
    distrito: 'Lisboa',
    latitude: '38.7307',
    longitude: '-9.1418',
    'codigo-postal': '1000-001',
    'info-local': '',
    'codigo-arteria': '1106A0001',
    'concelho-codigo': 6,
    'distrito-codigo': 11,
  },
];

const VILLAGE = [
  {
    morada: '',
    porta: '',
    localidade: 'Anobra',
    freguesia: 'Anobra',
    concelho: 'Condeixa-a-Nova',
    distrito: 'Coimbra',
    latitude: '40.1536',
    longitude: '-8.5146',
    'codigo-postal': '3150-999',
    'info-local': '',
    'codigo-arteria': '',
    'concelho-codigo': 4,
    'distrito-codigo': 6,
  },
];

describe('CTT adapter (GET /api/v1/{key}/{NNNN-NNN})', () => {
  let provider: FakeHttpServer;
  beforeAll(async () => {
    provider = await startFakeHttpServer();
  });
  afterAll(async () => {
    await provider.close();
  });

  const options = (apiKey: string | undefined = KEY) => ({ baseUrl: provider.baseUrl, apiKey, timeoutMs: 1000 });

  it('puts the key in the path and maps localidade, distrito and morada of the first record', async () => {
    provider.handle = (request, response) => {
      if (request.url === `/api/v1/${KEY}/1000-001`) sendJson(response, 200, LISBOA_1000_001);
      else sendJson(response, 200, []);
    };
    const before = provider.requests.length;
    await expect(lookup('1000-001', options())).resolves.toEqual({
      city: 'Lisboa',
      state: 'Lisboa',
      address: 'Rua dos Açores',
    });
    expect(provider.requests[before]?.url).toBe(`/api/v1/${KEY}/1000-001`);
  });

  it('gives an empty address when no record has a morada', async () => {
    provider.handle = (_request, response) => sendJson(response, 200, VILLAGE);
    await expect(lookup('3150-999', options())).resolves.toEqual({ city: 'Anobra', state: 'Coimbra', address: '' });
  });

  it('answers null for its empty array (unknown code)', async () => {
    provider.handle = (_request, response) => sendJson(response, 200, []);
    await expect(lookup('9999-999', options())).resolves.toBeNull();
  });

  it('refuses without a key, without calling the provider', async () => {
    const before = provider.requests.length;
    await expect(lookup('1000-001', options(''))).rejects.toBeInstanceOf(ProviderUnavailable);
    await expect(lookup('1000-001', { baseUrl: provider.baseUrl })).rejects.toThrow(/no API key/);
    expect(provider.requests.length).toBe(before);
  });

  it('escapes a key with URL-significant characters', async () => {
    provider.handle = (_request, response) => sendJson(response, 200, LISBOA_1000_001);
    const before = provider.requests.length;
    await lookup('1000-001', options('k/e?y#'));
    expect(provider.requests[before]?.url).toBe('/api/v1/k%2Fe%3Fy%23/1000-001');
  });

  it.each([
    ['a 500', (response: ServerResponse) => sendText(response, 500, 'Internal Server Error')],
    ['a 503', (response: ServerResponse) => sendText(response, 503, 'Service Unavailable')],
    ['a 429 over the per-minute quota', (response: ServerResponse) => sendText(response, 429, 'Too Many Requests')],
    ['a refused key (401)', (response: ServerResponse) => sendJson(response, 401, { error: 'Invalid API key' })],
    [
      'an error object instead of the array',
      (response: ServerResponse) => sendJson(response, 200, { error: 'Invalid API key' }),
    ],
    [
      'a 404 (wrong path, not its not-found answer)',
      (response: ServerResponse) => sendText(response, 404, 'Not Found'),
    ],
    ['malformed JSON', (response: ServerResponse) => sendText(response, 200, '[{"morada": ', 'application/json')],
    ['records that are not objects', (response: ServerResponse) => sendJson(response, 200, ['Lisboa'])],
    [
      'a record without localidade or distrito',
      (response: ServerResponse) => sendJson(response, 200, [{ morada: 'Rua' }]),
    ],
  ])('throws ProviderUnavailable for %s', async (_name, answer) => {
    provider.handle = (_request, response) => answer(response);
    await expect(lookup('1000-001', options())).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('gives up after the timeout when the provider hangs', async () => {
    provider.handle = hang;
    await expect(lookup('1000-001', options())).rejects.toThrow(/no answer within 1000 ms/);
  });
});
