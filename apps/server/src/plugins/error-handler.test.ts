import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { registerErrorHandler } from './error-handler.ts';

const SQL_MESSAGE =
  'duplicate key value violates unique constraint "users_email_unique": insert into "users" ("password_hash") values ($1)';

describe('registerErrorHandler', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    const server = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    server.setValidatorCompiler(validatorCompiler);
    server.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(server);
    server.get('/sql', async () => {
      throw new Error(SQL_MESSAGE);
    });
    server.get('/status-error', async () => {
      throw Object.assign(new Error('upstream said: secret=abc'), { statusCode: 502, code: 'UPSTREAM' });
    });
    server.get('/not-an-error', async () => {
      throw { detail: 'select * from sessions' };
    });
    server.get(
      '/leaky-response',
      { schema: { response: { 200: z.object({ ok: z.literal(true) }) } } },
      // Deliberately off-schema: the serializer must refuse it.
      async () => ({ ok: false, password_hash: '$argon2id$secret' }) as never,
    );
    server.get('/app-error', async () => {
      throw new AppError('too_many_requests', 429, { headers: { 'retry-after': '42' } });
    });
    server.get('/app-error-fields', async () => {
      throw new AppError('validation_failed', 400, { fields: { email: 'invalid_email' } });
    });
    server.get('/unavailable', async () => {
      throw new AppError('service_unavailable', 503, { message: 'Try later.', cause: new Error(SQL_MESSAGE) });
    });
    server.post(
      '/typed',
      { schema: { body: z.object({ age: z.number().int().min(0), name: z.string() }) } },
      async () => ({
        ok: true,
      }),
    );
    app = server;
    await app.ready();
  });
  afterEach(async () => {
    await app.close();
  });

  it.each(['/sql', '/status-error', '/not-an-error', '/leaky-response'])(
    'answers %s with a bare internal_error, leaking nothing',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'internal_error', message: 'Something went wrong on our side.' });
      expect(response.body).not.toMatch(/duplicate key|insert into|secret|select \*|argon2|stack|at .*\.ts/i);
    },
  );

  it('passes an AppError through with its status, code, headers and fields', async () => {
    const limited = await app.inject({ method: 'GET', url: '/app-error' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('42');
    expect(limited.json()).toEqual({ error: 'too_many_requests', message: expect.any(String) });

    const invalid = await app.inject({ method: 'GET', url: '/app-error-fields' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({
      error: 'validation_failed',
      message: expect.any(String),
      fields: { email: 'invalid_email' },
    });
  });

  it('keeps the cause of a 5xx AppError out of the answer', async () => {
    const response = await app.inject({ method: 'GET', url: '/unavailable' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'service_unavailable', message: 'Try later.' });
  });

  it('maps schema validation errors to per-field codes', async () => {
    const response = await app.inject({ method: 'POST', url: '/typed', payload: { age: -1 } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      message: 'Invalid body.',
      fields: { age: 'too_small', name: 'required' },
    });
  });
});
