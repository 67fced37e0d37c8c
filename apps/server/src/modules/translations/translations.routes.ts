import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LOCALES, isLocale } from '@vetcall/shared/locales';
import { CATALOGS } from '../../i18n.ts';
import { notFound } from '../../errors.ts';

/** Catalogs are fixed for the life of the process, so each body and its ETag are computed once. */
const prepared = Object.fromEntries(
  LOCALES.map((locale) => {
    const body = JSON.stringify(CATALOGS[locale]);
    return [locale, { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }];
  }),
);

/** docs/product-rules.md#api Translations: GET /api/translations/{lang}. */
export const translationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:lang',
    {
      schema: {
        tags: ['translations'],
        summary: 'The interface catalog of a locale (en, pt, pt-BR); 404 for any other',
        params: z.object({ lang: z.string().max(20) }),
      },
    },
    async (request, reply) => {
      const { lang } = request.params;
      if (!isLocale(lang)) throw notFound();
      const { body, etag } = prepared[lang]!;
      // no-cache: the browser revalidates every time and usually gets a tiny 304.
      void reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
};
