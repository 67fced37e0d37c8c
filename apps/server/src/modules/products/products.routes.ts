import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Locale } from '@vetcall/shared/locales';
import { localeField } from '@vetcall/shared/schemas/fields';
import {
  productDeletionSchema,
  productIdParamsSchema,
  productInputSchema,
  productPriceInputSchema,
  productSchema,
} from '@vetcall/shared/schemas/product';
import type { AppContext } from '../../context.ts';
import { cachedJson } from '../../lib/cached-json.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { changeProductPrice, createProduct, deleteProduct, listProducts } from './products.service.ts';

/** Answers of the managers' calls come back in `?lang=`, else in the manager's own language. */
const langQuery = z.object({ lang: localeField.optional() });

/** docs/product-rules.md#api Products, under /api/products: prices are stored in integer cents and answered in EUR. */
/** Built once: a schema built per request costs more than the cached answer it encodes. */
const productListSchema = z.array(productSchema);

export const productRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const managersOnly = { onRequest: requireAuth(context, 'manager') };
  const security = [{ bearer: [] }];
  const localeOf = (query: { lang?: Locale }, actor: { locale: Locale }) => query.lang ?? actor.locale;

  app.get(
    '/:locale',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['products'],
        summary: 'The products with their designation in the locale and their price (any logged-in user)',
        security,
        params: z.object({ locale: localeField }),
        response: { 200: productListSchema },
      },
    },
    async (request, reply) => {
      const { locale } = request.params;
      // Every logged-in user sees the same list in a language.
      return cachedJson(request, reply, context, `products:${locale}`, productListSchema, async () => ({
        value: await listProducts(context.db, actorOf(request), locale),
      }));
    },
  );

  app.post(
    '/',
    {
      ...managersOnly,
      schema: {
        tags: ['products'],
        summary: 'Create a product: designation in en, pt and pt-BR, price in EUR (≥ 0, two decimals)',
        security,
        querystring: langQuery,
        body: productInputSchema,
        response: { 201: productSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const created = await createProduct(context, actor, request.body, localeOf(request.query, actor));
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/:product_id',
    {
      ...managersOnly,
      schema: {
        tags: ['products'],
        summary: 'Remove a product',
        security,
        params: productIdParamsSchema,
        response: { 200: productDeletionSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => deleteProduct(context, actorOf(request), request.params.product_id),
  );

  app.put(
    '/price/:product_id',
    {
      ...managersOnly,
      schema: {
        tags: ['products'],
        summary: 'Change a product’s price (EUR, ≥ 0, at most two decimals)',
        security,
        params: productIdParamsSchema,
        querystring: langQuery,
        body: productPriceInputSchema,
        response: { 200: productSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return changeProductPrice(
        context,
        actor,
        request.params.product_id,
        request.body.price,
        localeOf(request.query, actor),
      );
    },
  );
};
