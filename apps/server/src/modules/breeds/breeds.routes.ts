import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LOCALES, type Locale } from '@vetcall/shared/locales';
import { type BreedListSpecies, canonicalSpecies } from '@vetcall/shared/pet-species';
import { breedListParamsSchema, breedListSchema } from '@vetcall/shared/schemas/breeds';
import { listBreeds } from './breed-catalog.ts';

/** The lists are fixed for the life of the process: one ETag per (species, language), computed once. */
function etagOf(key: string, body: unknown): string {
  const digest = createHash('sha256').update(key).update('\n').update(JSON.stringify(body)).digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}

type ListKey = BreedListSpecies | 'none';
const ETAGS = new Map<string, string>();
for (const species of ['Dog', 'Cat', 'none'] as const satisfies readonly ListKey[]) {
  for (const locale of LOCALES) {
    const key = `${species}/${locale}`;
    ETAGS.set(key, etagOf(key, listBreeds(species === 'none' ? null : species, locale)));
  }
}

function etagFor(species: BreedListSpecies | null, locale: Locale): string {
  return ETAGS.get(`${species ?? 'none'}/${locale}`)!;
}

/** `If-None-Match` may list several tags, weak ones (`W/"…"`) or `*`. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/**
 * docs/product-rules.md#api Pets: GET api/pets/breeds/{species}/{language}, registered under the prefix /api/pets.
 * Public reference data (the registration flow may use it before login), so no authentication.
 */
export const breedRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/breeds/:species/:language',
    {
      schema: {
        tags: ['pets'],
        summary: 'Breeds of a species (Dog, Cat) sorted by name in en, pt or pt-BR; [] for Other or free text',
        params: breedListParamsSchema,
        response: {
          200: breedListSchema,
          304: z.null().describe('Not modified: the If-None-Match ETag is current; no body'),
        },
      },
    },
    async (request, reply) => {
      const { species, language } = request.params;
      const canonical = canonicalSpecies(species);
      const etag = etagFor(canonical, language);
      void reply
        .header('etag', etag)
        .header('cache-control', 'public, max-age=86400')
        .header('vary', 'accept-encoding');
      if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send(null);
      return [...listBreeds(canonical, language)];
    },
  );
};
