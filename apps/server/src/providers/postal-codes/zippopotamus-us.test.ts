import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeHttpServer, hang, sendJson, sendText, startFakeHttpServer } from '../../../test/fake-http-server.ts';
import { ProviderUnavailable } from './provider-http.ts';
import { lookup } from './zippopotamus-us.ts';

const BEVERLY_HILLS_90210 = {
  'post code': '90210',
  country: 'United States',
  'country abbreviation': 'US',
  places: [
    {
      'place name': 'Beverly Hills',
      longitude: '-118.4065',
      state: 'California',
      'state abbreviation': 'CA',
      latitude: '34.0901',
    },
  ],
};

describe('Zippopotam.us adapter (GET /us/{NNNNN})', () => {
  let provider: FakeHttpServer;
  beforeAll(async () => {
    provider = await startFakeHttpServer();
  });
  afterAll(async () => {
    await provider.close();
  });

  const options = () => ({ baseUrl: provider.baseUrl, timeoutMs: 1000 });

  it('maps the first place: place name and state; no street', async () => {
    provider.handle = (request, response) => {
      if (request.url === '/us/90210') sendJson(response, 200, BEVERLY_HILLS_90210);
      else sendJson(response, 404, {});
    };
    const before = provider.requests.length;
    await expect(lookup('90210', options())).resolves.toEqual({
      city: 'Beverly Hills',
      state: 'California',
      address: '',
    });
    expect(provider.requests[before]?.url).toBe('/us/90210');
  });

  it('answers null for its 404 with an empty object', async () => {
    provider.handle = (_request, response) => sendJson(response, 404, {});
    await expect(lookup('00000', options())).resolves.toBeNull();
  });

  it('answers null for a 200 with no places', async () => {
    provider.handle = (_request, response) => sendJson(response, 200, { ...BEVERLY_HILLS_90210, places: [] });
    await expect(lookup('90210', options())).resolves.toBeNull();
  });

  it.each([
    ['a 500', (response: ServerResponse) => sendText(response, 500, 'Internal Server Error')],
    ['a 502 from its proxy', (response: ServerResponse) => sendText(response, 502, '<h1>502 Bad Gateway</h1>')],
    [
      'malformed JSON',
      (response: ServerResponse) => sendText(response, 200, '{"post code": "90210", "pla', 'application/json'),
    ],
    ['JSON without places', (response: ServerResponse) => sendJson(response, 200, { 'post code': '90210' })],
    [
      'a place without its name',
      (response: ServerResponse) => sendJson(response, 200, { places: [{ state: 'California' }] }),
    ],
  ])('throws ProviderUnavailable for %s', async (_name, answer) => {
    provider.handle = (_request, response) => answer(response);
    await expect(lookup('90210', options())).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('gives up after the timeout when the provider hangs', async () => {
    provider.handle = hang;
    await expect(lookup('90210', options())).rejects.toThrow(/no answer within 1000 ms/);
  });
});
