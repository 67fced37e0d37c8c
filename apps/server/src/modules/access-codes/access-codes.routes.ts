import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accessCodeIdParamsSchema,
  accessCodeInputSchema,
  accessCodeSchema,
  accessCodeValidationInputSchema,
  accessCodeValidationSchema,
} from '@vetcall/shared/schemas/access-code';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import {
  createAccessCode,
  listAccessCodes,
  setAccessCodeDisabled,
  validateAccessCode,
} from './access-codes.service.ts';

/**
 * docs/product-rules.md#api access codes, under /api/appointmentsaccesscodes. With ACCESS_CODES_ENABLED=false every
 * route answers 404 not_found, before authentication, as if it did not exist.
 */
export const accessCodeRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  // Instance hooks run before the routes' own onRequest (requireAuth).
  app.addHook('onRequest', async () => {
    if (!context.config.accessCodesEnabled) throw notFound();
  });

  const managersOnly = { onRequest: requireAuth(context, 'manager') };
  const security = [{ bearer: [] }];
  // Every route here is 404 while access codes are off.
  const notFoundWhenOff = { 404: ['not_found'] } as const;

  app.get(
    '/',
    {
      ...managersOnly,
      schema: {
        tags: ['access codes'],
        summary: 'Every access code, newest validity first (managers)',
        security,
        response: { 200: z.array(accessCodeSchema) },
        errors: notFoundWhenOff,
      },
    },
    async (request) => listAccessCodes(context.db, actorOf(request)),
  );

  app.post(
    '/',
    {
      ...managersOnly,
      schema: {
        tags: ['access codes'],
        summary: 'Create a code (stored trimmed and upper-cased); 409 access_code_exists when taken',
        security,
        body: accessCodeInputSchema,
        response: { 201: accessCodeSchema },
        errors: { ...notFoundWhenOff, 409: ['access_code_exists'] },
      },
    },
    async (request, reply) => reply.status(201).send(await createAccessCode(context, actorOf(request), request.body)),
  );

  app.put(
    '/:access_code_id/disable',
    {
      ...managersOnly,
      schema: {
        tags: ['access codes'],
        summary: 'Disable a code: it no longer validates',
        security,
        params: accessCodeIdParamsSchema,
        response: { 200: accessCodeSchema },
        errors: notFoundWhenOff,
      },
    },
    async (request) => setAccessCodeDisabled(context, actorOf(request), request.params.access_code_id, true),
  );

  app.put(
    '/:access_code_id/enable',
    {
      ...managersOnly,
      schema: {
        tags: ['access codes'],
        summary: 'Enable a disabled code again',
        security,
        params: accessCodeIdParamsSchema,
        response: { 200: accessCodeSchema },
        errors: notFoundWhenOff,
      },
    },
    async (request) => setAccessCodeDisabled(context, actorOf(request), request.params.access_code_id, false),
  );

  app.post(
    '/validate',
    {
      onRequest: requireAuth(context, 'customer', 'manager'),
      schema: {
        tags: ['access codes'],
        summary: 'Whether a code is valid today, and whether it makes the appointment free (rate-limited)',
        security,
        body: accessCodeValidationInputSchema,
        response: { 200: accessCodeValidationSchema },
        errors: { ...notFoundWhenOff, 429: ['too_many_requests'] },
      },
    },
    async (request) => validateAccessCode(context, actorOf(request), request.body.code, request.ip),
  );
};
