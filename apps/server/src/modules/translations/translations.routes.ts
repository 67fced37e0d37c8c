import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LOCALES, isLocale } from '@vetcall/shared/locales';
import { CATALOGS } from '../../i18n.ts';
import { notFound } from '../../errors.ts';
import { type KeptBytes, sendAnswer } from '../../lib/json-answer.ts';

/**
 * Catalogs are fixed for the life of the process, so each body, its gzip form (47 KB → 14 KB: the first
 * screen waits for it) and its ETag are computed once.
 */
const prepared = Object.fromEntries(
  LOCALES.map((locale) => {
    const body = JSON.stringify(CATALOGS[locale]);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const answer: KeptBytes = { body: Buffer.from(body), gzipped: gzipSync(body, { level: 9 }) };
    return [locale, { answer, etag }];
  }),
);

/** An i18next catalog: namespaces of keys, each a text or a group of texts (plural forms, say). */
const catalogSchema = z
  .record(z.string(), z.record(z.string(), z.union([z.string(), z.record(z.string(), z.string())])))
  .describe('The interface texts by namespace and key, with {{name}} placeholders for i18next');

/** docs/product-rules.md#api Translations: GET /api/translations/{lang}. */
export const translationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:lang',
    {
      schema: {
        tags: ['translations'],
        summary: 'The interface catalog of a locale (en, pt, pt-BR); 404 for any other',
        params: z.object({ lang: z.string().max(20) }),
        rawResponses: {
          200: { description: 'The catalog, with its ETag', schema: catalogSchema },
          304: { description: 'Not modified: the If-None-Match ETag is current; no body' },
        },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      const { lang } = request.params;
      if (!isLocale(lang)) throw notFound();
      const { answer, etag } = prepared[lang]!;
      // no-cache: the browser revalidates every time and usually gets a tiny 304.
      void reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return sendAnswer(request, reply, answer);
    },
  );
};
