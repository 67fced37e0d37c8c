import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eventIdParam, holdInputSchema, holdSchema } from '@vetcall/shared/schemas/scheduling';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { createHold, releaseHold } from './holds.service.ts';

/**
 * Holds on slots (ARCHITECTURE §4 "No double booking"), under /api/scheduling: customers hold a time to book
 * or move their appointment; a vet (own calendar) and managers to move one (scheduling.policy.ts).
 */
export const holdRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const security = [{ bearer: [] }];
  const signedIn = requireAuth(context);

  app.post(
    '/holds',
    {
      onRequest: signedIn,
      schema: {
        tags: ['scheduling'],
        summary: 'Hold a free slot for 15 minutes (at most 3 live holds per person)',
        description:
          '409 slot_taken when the time is no longer free; 400 when `start` is not a slot of the profile; 403 a ' +
          'vet on another vet\u2019s calendar.',
        security,
        body: holdInputSchema,
        response: { 201: holdSchema },
        errors: {
          403: ['forbidden'],
          404: ['not_found'],
          409: ['slot_taken', 'too_many_holds'],
          429: ['too_many_requests'],
        },
      },
    },
    async (request, reply) => reply.status(201).send(await createHold(context, actorOf(request), request.body)),
  );

  app.delete(
    '/holds/:event_id',
    {
      onRequest: signedIn,
      schema: {
        tags: ['scheduling'],
        summary: 'Give back one of one’s own live holds',
        security,
        params: z.object({ event_id: eventIdParam }),
        response: { 204: z.null().describe('Released') },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      await releaseHold(context, actorOf(request), request.params.event_id);
      return reply.status(204).send(null);
    },
  );
};
