import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { registerErrorHandler } from '../../plugins/error-handler.ts';
import { createMemoryRateLimiter } from '../../plugins/rate-limiter.ts';
import { createPostalCodeLookup } from '../../providers/postal-codes/postal-code-service.ts';
import { type FakeHttpServer, hang, sendJson, sendText, startFakeHttpServer } from '../../../test/fake-http-server.ts';
import { POSTAL_CODE_RATE_LIMIT, postalCodeRoutes } from './postal-codes.routes.ts';

function geoApiPt(request: IncomingMessage, response: ServerResponse) {
  if (request.url === '/cp/1000-001?json=1') {
    sendJson(response, 200, {
      CP: '1000-001',
      Distrito: 'Lisboa',
      Concelho: 'Lisboa',
      Localidade: 'Lisboa',
      partes: [{ Artéria: 'Rua dos Açores', Local: '', Troço: '', Porta: '', Cliente: '' }],
    });
  } else sendJson(response, 404, { erro: 'Postal Code not found!' });
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

describe('GET /api/postalcodes/{country}/{code}', () => {
  let pt: FakeHttpServer;
  let us: FakeHttpServer;
  let br: FakeHttpServer;
  let app: FastifyInstance;
  let clock: ReturnType<typeof fixedClock>;

  beforeEach(async () => {
    [pt, us, br] = await Promise.all([
      startFakeHttpServer(geoApiPt),
      startFakeHttpServer(zippopotamus),
      startFakeHttpServer(viaCep),
    ]);
    clock = fixedClock('2026-03-02T10:00:00Z');
    const lookup = createPostalCodeLookup(
      {
        portugalProvider: 'geoapi',
        portugalUrl: pt.baseUrl,
        cttApiKey: undefined,
        unitedStatesUrl: us.baseUrl,
        brazilUrl: br.baseUrl,
      },
      clock,
      // Long enough for a fake provider on loopback to answer beside a busy test worker (150 ms was not), short
      // enough for the one test whose provider hangs.
      { timeoutMs: 1000 },
    );
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    await app.register(postalCodeRoutes, {
      prefix: '/api/postalcodes',
      context: { limiter: createMemoryRateLimiter(clock) },
      lookup,
    });
    await app.ready();
  });
  afterEach(async () => {
    await app.close();
    await Promise.all([pt.close(), us.close(), br.close()]);
  });

  const get = (path: string, remoteAddress = '203.0.113.7') =>
    app.inject({ method: 'GET', url: `/api/postalcodes/${path}`, remoteAddress });

  it.each([
    [
      'PT/1000-001',
      { country: 'PT', postal_code: '1000-001', city: 'Lisboa', state: 'Lisboa', address: 'Rua dos Açores' },
    ],
    ['US/90210', { country: 'US', postal_code: '90210', city: 'Beverly Hills', state: 'California', address: '' }],
    [
      'BR/01001-000',
      { country: 'BR', postal_code: '01001-000', city: 'São Paulo', state: 'SP', address: 'Praça da Sé, Sé' },
    ],
    [
      'BR/01001000',
      { country: 'BR', postal_code: '01001-000', city: 'São Paulo', state: 'SP', address: 'Praça da Sé, Sé' },
    ],
    [
      'pt/1000001',
      { country: 'PT', postal_code: '1000-001', city: 'Lisboa', state: 'Lisboa', address: 'Rua dos Açores' },
    ],
  ])('answers 200 for %s, cacheable for a day', async (path, body) => {
    const response = await get(path);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(body);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('needs no authentication', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/postalcodes/US/90210' });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    'PT/1000',
    'PT/1000-0011',
    'PT/ABCD-EFG',
    'US/9021',
    'US/90210-1234',
    'BR/0100-1000',
    `US/${'9'.repeat(25)}`,
  ])('answers 400 validation_failed with code: invalid_format for %s, without calling a provider', async (path) => {
    const response = await get(path);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      message: expect.any(String),
      fields: { code: 'invalid_format' },
    });
    expect([...pt.requests, ...us.requests, ...br.requests]).toHaveLength(0);
  });

  it('answers 400 for an unknown country, flagging the country and the code', async () => {
    const response = await get('ES/28001');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'validation_failed',
      fields: { country: 'invalid_value', code: 'invalid_format' },
    });
  });

  it('answers 404 not_found for a code the provider does not know', async () => {
    for (const path of ['PT/9999-999', 'US/00000', 'BR/99999-999']) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: expect.any(String) });
      expect(response.headers['cache-control']).toBeUndefined();
    }
  });

  it('answers 503 service_unavailable when the provider fails or hangs, and recovers when it is back', async () => {
    pt.handle = (_request, response) => sendText(response, 500, 'Internal Server Error');
    br.handle = hang;
    for (const path of ['PT/1000-001', 'BR/01001-000']) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(503);
      expect(response.json()).toEqual({ error: 'service_unavailable', message: expect.any(String) });
      expect(response.headers['cache-control']).toBe('no-store');
    }
    pt.handle = geoApiPt;
    expect((await get('PT/1000-001')).statusCode).toBe(200);
  });

  it('limits each IP to 60 lookups per 15 minutes, answering 429 with retry-after', async () => {
    expect(POSTAL_CODE_RATE_LIMIT).toEqual({ limit: 60, windowMs: 15 * 60 * 1000 });
    for (let i = 0; i < 60; i++) expect((await get('US/90210')).statusCode).toBe(200);
    const refused = await get('US/90210');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'too_many_requests' });
    expect(refused.headers['retry-after']).toBe(String(15 * 60));
    // Cache hits count too, but only one provider call was made.
    expect(us.requests).toHaveLength(1);

    expect((await get('US/90210', '198.51.100.4')).statusCode).toBe(200);

    clock.advance(15 * 60 * 1000);
    expect((await get('US/90210')).statusCode).toBe(200);
  });
});
