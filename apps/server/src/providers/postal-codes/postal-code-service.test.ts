import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { type FakeHttpServer, hang, sendJson, sendText, startFakeHttpServer } from '../../../test/fake-http-server.ts';
import { createPostalCodeLookup, FOUND_TTL_MS, NOT_FOUND_TTL_MS } from './postal-code-service.ts';

const HOUR = 60 * 60 * 1000;
/** Time a fake provider on loopback has to answer: ample beside a busy test worker; only a hanging one waits it out. */
const ANSWER_WITHIN_MS = 2000;

/** Each fake answers like its provider: known codes in the real format, anything else with its not-found answer. */
function geoApiPt(request: IncomingMessage, response: ServerResponse) {
  if (request.url === '/cp/1000-001?json=1') {
    sendJson(response, 200, {
      CP: '1000-001',
      Distrito: 'Lisboa',
      Concelho: 'Lisboa',
      Localidade: 'Lisboa',
      'Designação Postal': 'LISBOA',
      partes: [{ Artéria: 'Rua dos Açores', Local: '', Troço: '', Porta: '', Cliente: '' }],
    });
  } else sendJson(response, 404, { erro: 'Postal Code not found!' });
}

function ctt(request: IncomingMessage, response: ServerResponse) {
  if (request.url === '/api/v1/the-key/4000-001') {
    sendJson(response, 200, [
      { morada: 'Rua de Santa Catarina', localidade: 'Porto', concelho: 'Porto', distrito: 'Porto' },
    ]);
  } else sendJson(response, 200, []);
}

function zippopotamus(request: IncomingMessage, response: ServerResponse) {
  if (request.url === '/us/90210') {
    sendJson(response, 200, {
      'post code': '90210',
      country: 'United States',
      'country abbreviation': 'US',
      places: [{ 'place name': 'Beverly Hills', state: 'California', 'state abbreviation': 'CA' }],
    });
  } else sendJson(response, 404, {});
}

function viaCep(request: IncomingMessage, response: ServerResponse) {
  if (request.url === '/ws/01001000/json/') {
    sendJson(response, 200, {
      cep: '01001-000',
      logradouro: 'Praça da Sé',
      bairro: 'Sé',
      localidade: 'São Paulo',
      uf: 'SP',
    });
  } else sendJson(response, 200, { erro: 'true' });
}

describe('createPostalCodeLookup', () => {
  let pt: FakeHttpServer;
  let cttServer: FakeHttpServer;
  let us: FakeHttpServer;
  let br: FakeHttpServer;
  let clock: ReturnType<typeof fixedClock>;

  beforeEach(async () => {
    [pt, cttServer, us, br] = await Promise.all([
      startFakeHttpServer(geoApiPt),
      startFakeHttpServer(ctt),
      startFakeHttpServer(zippopotamus),
      startFakeHttpServer(viaCep),
    ]);
    clock = fixedClock('2026-03-02T10:00:00Z');
  });
  afterEach(async () => {
    await Promise.all([pt.close(), cttServer.close(), us.close(), br.close()]);
  });

  function config(overrides: Partial<Config['postalCodes']> = {}): Config['postalCodes'] {
    return {
      portugalProvider: 'geoapi',
      portugalUrl: pt.baseUrl,
      cttApiKey: undefined,
      unitedStatesUrl: us.baseUrl,
      brazilUrl: br.baseUrl,
      ...overrides,
    };
  }

  it('finds a code in each country through its provider', async () => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: ANSWER_WITHIN_MS });
    await expect(postal.lookup('PT', '1000-001')).resolves.toEqual({
      status: 'found',
      value: { country: 'PT', postal_code: '1000-001', city: 'Lisboa', state: 'Lisboa', address: 'Rua dos Açores' },
    });
    await expect(postal.lookup('US', '90210')).resolves.toEqual({
      status: 'found',
      value: { country: 'US', postal_code: '90210', city: 'Beverly Hills', state: 'California', address: '' },
    });
    await expect(postal.lookup('BR', '01001-000')).resolves.toEqual({
      status: 'found',
      value: { country: 'BR', postal_code: '01001-000', city: 'São Paulo', state: 'SP', address: 'Praça da Sé, Sé' },
    });
  });

  it('normalizes: BR 8 digits and PT 7 digits get their dash, spaces and lower-case country are accepted', async () => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: ANSWER_WITHIN_MS });
    const brazil = await postal.lookup('BR', '01001000');
    expect(brazil.status === 'found' && brazil.value.postal_code).toBe('01001-000');
    expect(br.requests.map((r) => r.url)).toEqual(['/ws/01001000/json/']);

    const portugal = await postal.lookup('pt', ' 1000001 ');
    expect(portugal.status === 'found' && portugal.value.postal_code).toBe('1000-001');
    expect(pt.requests.map((r) => r.url)).toEqual(['/cp/1000-001?json=1']);

    // Same code in either form: one cache entry, no second call.
    await postal.lookup('BR', '01001-000');
    expect(br.requests).toHaveLength(1);
  });

  it.each([
    ['PT', '1000'],
    ['PT', '1000-01'],
    ['PT', '10000-001'],
    ['US', '9021'],
    ['US', '90210-1234'],
    ['US', 'ABCDE'],
    ['BR', '0100100'],
    ['BR', '01001-0000'],
    ['ES', '28001'],
    ['', '1000-001'],
  ])('answers invalid for %s %s without calling any provider', async (country, code) => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: ANSWER_WITHIN_MS });
    await expect(postal.lookup(country, code)).resolves.toEqual({ status: 'invalid' });
    expect([...pt.requests, ...us.requests, ...br.requests]).toHaveLength(0);
  });

  it('serves a found code from the cache for 7 days, then asks again', async () => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: ANSWER_WITHIN_MS });
    await postal.lookup('US', '90210');
    clock.advance(FOUND_TTL_MS - 1000);
    us.handle = (_request, response) => sendText(response, 500, 'down'); // the cache must not need it
    await expect(postal.lookup('US', '90210')).resolves.toMatchObject({ status: 'found' });
    expect(us.requests).toHaveLength(1);

    us.handle = zippopotamus;
    clock.advance(2000);
    await expect(postal.lookup('US', '90210')).resolves.toMatchObject({ status: 'found' });
    expect(us.requests).toHaveLength(2);
    expect(FOUND_TTL_MS).toBe(7 * 24 * HOUR);
  });

  it('caches a not-found answer for an hour', async () => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: ANSWER_WITHIN_MS });
    await expect(postal.lookup('PT', '9999-999')).resolves.toEqual({
      status: 'not_found',
      country: 'PT',
      postal_code: '9999-999',
    });
    clock.advance(59 * 60 * 1000);
    await expect(postal.lookup('PT', '9999-999')).resolves.toMatchObject({ status: 'not_found' });
    expect(pt.requests).toHaveLength(1);

    clock.advance(2 * 60 * 1000);
    await expect(postal.lookup('PT', '9999-999')).resolves.toMatchObject({ status: 'not_found' });
    expect(pt.requests).toHaveLength(2);
    expect(NOT_FOUND_TTL_MS).toBe(HOUR);
  });

  it('caches the not-found answers of ViaCEP ({"erro": "true"}) and Zippopotam.us (404 {})', async () => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: ANSWER_WITHIN_MS });
    for (let i = 0; i < 3; i++) {
      await expect(postal.lookup('BR', '99999-999')).resolves.toMatchObject({ status: 'not_found' });
      await expect(postal.lookup('US', '00000')).resolves.toMatchObject({ status: 'not_found' });
    }
    expect(br.requests).toHaveLength(1);
    expect(us.requests).toHaveLength(1);
  });

  it('does not cache an unavailable provider: the next lookup asks again and can succeed', async () => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: ANSWER_WITHIN_MS });
    br.handle = (_request, response) => sendText(response, 503, 'Service Unavailable');
    const first = await postal.lookup('BR', '01001-000');
    expect(first.status).toBe('unavailable');
    expect(first.status === 'unavailable' && first.error.message).toBe('ViaCEP: answered HTTP 503');

    br.handle = (_request, response) => sendText(response, 200, '{"cep": ', 'application/json');
    await expect(postal.lookup('BR', '01001-000')).resolves.toMatchObject({ status: 'unavailable' });

    br.handle = viaCep;
    await expect(postal.lookup('BR', '01001-000')).resolves.toMatchObject({ status: 'found' });
    expect(br.requests).toHaveLength(3);
  });

  it('answers unavailable when the provider hangs past the timeout', async () => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: 150 });
    pt.handle = hang;
    const started = Date.now();
    const result = await postal.lookup('PT', '1000-001');
    expect(result.status).toBe('unavailable');
    expect(result.status === 'unavailable' && result.error.message).toBe('GEO API PT: no answer within 150 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('uses CTT for Portugal when configured, with the key', async () => {
    const postal = createPostalCodeLookup(
      config({ portugalProvider: 'ctt', portugalUrl: cttServer.baseUrl, cttApiKey: 'the-key' }),
      clock,
      { timeoutMs: ANSWER_WITHIN_MS },
    );
    await expect(postal.lookup('PT', '4000-001')).resolves.toEqual({
      status: 'found',
      value: {
        country: 'PT',
        postal_code: '4000-001',
        city: 'Porto',
        state: 'Porto',
        address: 'Rua de Santa Catarina',
      },
    });
    await expect(postal.lookup('PT', '9999-999')).resolves.toMatchObject({ status: 'not_found' });
    expect(cttServer.requests.map((r) => r.url)).toEqual(['/api/v1/the-key/4000-001', '/api/v1/the-key/9999-999']);
    expect(pt.requests).toHaveLength(0);
  });

  it('treats CTT without a key as unavailable, without calling anyone', async () => {
    const postal = createPostalCodeLookup(
      config({ portugalProvider: 'ctt', portugalUrl: cttServer.baseUrl, cttApiKey: undefined }),
      clock,
      { timeoutMs: ANSWER_WITHIN_MS },
    );
    await expect(postal.lookup('PT', '4000-001')).resolves.toMatchObject({ status: 'unavailable' });
    expect(cttServer.requests).toHaveLength(0);
    expect(pt.requests).toHaveLength(0);
  });

  it('keeps at most maxEntries answers, dropping the oldest', async () => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: ANSWER_WITHIN_MS, maxEntries: 2 });
    await postal.lookup('US', '90210');
    await postal.lookup('US', '00001');
    await postal.lookup('US', '00002'); // evicts 90210
    await postal.lookup('US', '00002');
    await postal.lookup('US', '00001');
    expect(us.requests).toHaveLength(3);
    await postal.lookup('US', '90210');
    expect(us.requests.map((r) => r.url)).toEqual(['/us/90210', '/us/00001', '/us/00002', '/us/90210']);
  });

  it('makes one provider call for concurrent lookups of the same code', async () => {
    const postal = createPostalCodeLookup(config(), clock, { timeoutMs: ANSWER_WITHIN_MS });
    us.handle = (request, response) => setTimeout(() => zippopotamus(request, response), 50);
    const results = await Promise.all([1, 2, 3, 4].map(() => postal.lookup('US', '90210')));
    expect(results.every((result) => result.status === 'found')).toBe(true);
    expect(us.requests).toHaveLength(1);
  });
});
