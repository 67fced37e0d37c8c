import Fastify, { type FastifyInstance } from 'fastify';
import { type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rememberingValidatorCompiler } from './remembered-validation.ts';

describe('rememberingValidatorCompiler', () => {
  let app: FastifyInstance;
  let parses: number;
  const seen: unknown[] = [];

  beforeEach(async () => {
    parses = 0;
    seen.length = 0;
    app = Fastify();
    app.setValidatorCompiler(rememberingValidatorCompiler);
    const counted = z.string().transform((value) => {
      parses += 1;
      return value.toUpperCase();
    });
    app.withTypeProvider<ZodTypeProvider>().get(
      '/things/:id',
      {
        schema: {
          params: z.object({ id: z.coerce.number().int().positive() }),
          querystring: z.object({ name: counted, tags: z.array(z.string()).optional() }),
        },
      },
      async (request) => {
        seen.push(request.query);
        return { id: request.params.id, name: request.query.name, tags: request.query.tags ?? null };
      },
    );
    app
      .withTypeProvider<ZodTypeProvider>()
      .get('/mutates', { schema: { querystring: z.object({ name: z.string() }) } }, async (request) => {
        (request.query as { name: string }).name = 'changed';
        return { name: request.query.name };
      });
    await app.ready();
  });
  afterEach(async () => {
    await app.close();
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('parses a repeated query once and answers it the same, transformed', async () => {
    expect((await get('/things/7?name=rui')).json()).toEqual({ id: 7, name: 'RUI', tags: null });
    expect((await get('/things/7?name=rui')).json()).toEqual({ id: 7, name: 'RUI', tags: null });
    expect(parses).toBe(1);
    expect(seen[0]).toBe(seen[1]);
    expect((await get('/things/7?name=ana')).json()).toEqual({ id: 7, name: 'ANA', tags: null });
    expect(parses).toBe(2);
  });

  it('keeps refusing bad input, each time with its field', async () => {
    for (let i = 0; i < 2; i += 1) {
      const response = await get('/things/-1?name=rui');
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toContain('id');
      expect((await get('/things/7')).statusCode).toBe(400);
    }
  });

  it('parses inputs that are not flat text every time (repeated keys give an array)', async () => {
    expect((await get('/things/7?name=rui&tags=a&tags=b')).json()).toEqual({ id: 7, name: 'RUI', tags: ['a', 'b'] });
    expect((await get('/things/7?name=rui&tags=a&tags=b')).json()).toEqual({ id: 7, name: 'RUI', tags: ['a', 'b'] });
    expect(parses).toBe(2);
  });

  it('hands out frozen values: a handler cannot change what the next request gets', async () => {
    expect((await get('/mutates?name=rui')).statusCode).toBe(500);
    expect((await get('/mutates?name=rui')).statusCode).toBe(500);
  });

  it('forgets the oldest input past 256 and parses it again', async () => {
    for (let i = 0; i <= 256; i += 1) await get(`/things/1?name=n${i}`);
    expect(parses).toBe(257);
    await get('/things/1?name=n256');
    expect(parses).toBe(257);
    await get('/things/1?name=n0');
    expect(parses).toBe(258);
  });
});
