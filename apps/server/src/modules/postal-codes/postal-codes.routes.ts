import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { postalCodeLookupSchema, postalCodeParamsSchema } from '@vetcall/shared/schemas/postal-code';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { assertAllowed, type RateRule } from '../../plugins/rate-limiter.ts';
import type { PostalCodeLookup } from '../../providers/postal-codes/postal-code-service.ts';

/** Per client IP: a registration needs a handful of lookups; this stops the route being a free proxy. */
export const POSTAL_CODE_RATE_LIMIT: RateRule = { limit: 60, windowMs: 15 * 60 * 1000 };

/**
 * docs/product-rules.md#validation Postal code, under /api/postalcodes. No authentication: the registration form uses
 * it before the account exists. 200 found; 400 `code: invalid_format`; 404 unknown code; 503 provider unreachable
 * (the form then lets the person type city, state and address).
 */
export const postalCodeRoutes: FastifyPluginAsyncZod<{
  context: Pick<AppContext, 'limiter'>;
  lookup: PostalCodeLookup;
}> = async (app, { context, lookup }) => {
  app.get(
    '/:country/:code',
    {
      schema: {
        tags: ['postal codes'],
        summary:
          'City, state and street of a postal code: PT NNNN-NNN, US NNNNN, BR NNNNN-NNN (dash optional for PT and BR)',
        params: postalCodeParamsSchema,
        response: { 200: postalCodeLookupSchema },
        errors: { 404: ['not_found'], 429: ['too_many_requests'], 503: ['service_unavailable'] },
      },
    },
    async (request, reply) => {
      assertAllowed(await context.limiter.hit(`postalcodes:ip:${request.ip}`, POSTAL_CODE_RATE_LIMIT));

      const result = await lookup.lookup(request.params.country, request.params.code);
      switch (result.status) {
        case 'found':
          void reply.header('cache-control', 'public, max-age=86400');
          return result.value;
        case 'not_found':
          throw new AppError('not_found', 404, { message: 'No such postal code.' });
        case 'invalid':
          throw new AppError('validation_failed', 400, { fields: { code: 'invalid_format' } });
        case 'unavailable':
          request.log.warn({ err: result.error }, 'postal code provider unavailable');
          throw new AppError('service_unavailable', 503, {
            message: 'The postal code service is unreachable; type the address fields.',
            headers: { 'cache-control': 'no-store' },
          });
      }
    },
  );
};
