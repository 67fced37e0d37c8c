import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../plugins/error-handler.ts';
import { CAT_BREEDS, DOG_BREEDS } from './breed-catalog.ts';
import { breedRoutes } from './breeds.routes.ts';

/**
 * The breed routes as app.ts mounts them (prefix /api/pets, the zod compilers and the error handler of
 * the real app). The lists are static data, so no database is needed.
 */
async function buildBreedApp(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await app.register(breedRoutes, { prefix: '/api/pets' });
  await app.ready();
  return app;
}

type BreedRow = { breed_id: number; name: string };

describe('GET /api/pets/breeds/{species}/{language}', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildBreedApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (species: string, language: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url: `/api/pets/breeds/${encodeURIComponent(species)}/${encodeURIComponent(language)}`,
      headers,
    });

  it.each([
    ['Dog', 'en', DOG_BREEDS.length, { breed_id: 1023, name: 'French Bulldog' }],
    ['Dog', 'pt', DOG_BREEDS.length, { breed_id: 1023, name: 'Bulldog Francês' }],
    ['Dog', 'pt-BR', DOG_BREEDS.length, { breed_id: 1023, name: 'Buldogue Francês' }],
    ['Cat', 'en', CAT_BREEDS.length, { breed_id: 2005, name: 'Siamese' }],
    ['Cat', 'pt', CAT_BREEDS.length, { breed_id: 2002, name: 'Europeu Comum' }],
    ['Cat', 'pt-BR', CAT_BREEDS.length, { breed_id: 2001, name: 'Sem raça definida (SRD)' }],
  ] as const)(
    'answers the %s breeds in %s, sorted by name, without authentication',
    async (species, language, count, sample) => {
      const response = await get(species, language);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
      expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
      const body = response.json<BreedRow[]>();
      expect(body).toHaveLength(count);
      expect(body).toContainEqual(sample);
      for (const row of body) expect(Object.keys(row).sort()).toEqual(['breed_id', 'name']);
      const names = body.map((row) => row.name);
      expect(names).toEqual([...names].sort(new Intl.Collator(language).compare));
    },
  );

  it.each([['dog'], ['DOG'], ['Cão'], ['cão'], ['Cachorro'], ['cachorro']])(
    'accepts %j as the dog species',
    async (alias) => {
      const canonical = await get('Dog', 'pt');
      const response = await get(alias, 'pt');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(canonical.json());
      expect(response.headers.etag).toBe(canonical.headers.etag);
    },
  );

  it.each([['cat'], ['CAT'], ['Gato'], ['gato']])('accepts %j as the cat species', async (alias) => {
    const response = await get(alias, 'pt-BR');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual((await get('Cat', 'pt-BR')).json());
  });

  it('accepts the loose spellings of pt-BR', async () => {
    const canonical = (await get('Dog', 'pt-BR')).json();
    for (const language of ['pt_BR', 'pt-br', 'PT-BR']) {
      const response = await get('Dog', language);
      expect(response.statusCode, language).toBe(200);
      expect(response.json(), language).toEqual(canonical);
    }
  });

  it.each([['Other'], ['other'], ['Rabbit'], ['Coelho'], ['Porquinho-da-índia'], [' ']])(
    'answers an empty list for %j (the breed is then free text)',
    async (species) => {
      for (const language of ['en', 'pt', 'pt-BR']) {
        const response = await get(species, language);
        expect(response.statusCode, language).toBe(200);
        expect(response.json(), language).toEqual([]);
        expect(response.headers['cache-control']).toBe('public, max-age=86400');
      }
    },
  );

  it('answers an empty list for an empty species', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/pets/breeds//pt' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it.each([['xx'], ['es'], ['pt-PTX'], ['english']])('refuses the unknown language %j with 400', async (language) => {
    const response = await get('Dog', language);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      message: expect.any(String),
      fields: { language: 'invalid_value' },
    });
  });

  it('refuses an unknown language even for a species without a list', async () => {
    const response = await get('Other', 'fr');
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ language: 'invalid_value' });
  });

  it('answers 304 when If-None-Match carries the current ETag', async () => {
    const first = await get('Cat', 'pt');
    const etag = first.headers.etag as string;
    const again = await get('Cat', 'pt', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=86400');

    const weak = await get('gato', 'pt', { 'if-none-match': `"other", W/${etag}` });
    expect(weak.statusCode).toBe(304);

    const stale = await get('Cat', 'pt', { 'if-none-match': '"stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(first.json());
  });

  it('gives each (species, language) its own ETag', async () => {
    const etags = new Set<string>();
    for (const species of ['Dog', 'Cat', 'Other']) {
      for (const language of ['en', 'pt', 'pt-BR']) {
        etags.add((await get(species, language)).headers.etag as string);
      }
    }
    expect(etags.size).toBe(9);
    // The ETag of one language does not validate another.
    const en = await get('Dog', 'en');
    const cross = await get('Dog', 'pt', { 'if-none-match': en.headers.etag as string });
    expect(cross.statusCode).toBe(200);
  });

  it('gives every free-text species the same ETag per language', async () => {
    const other = await get('Other', 'pt');
    const rabbit = await get('Coelho', 'pt');
    expect(rabbit.headers.etag).toBe(other.headers.etag);
    const revalidated = await get('Coelho', 'pt', { 'if-none-match': other.headers.etag as string });
    expect(revalidated.statusCode).toBe(304);
  });
});
