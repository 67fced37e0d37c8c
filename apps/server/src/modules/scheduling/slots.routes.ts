import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam } from '@vetcall/shared/schemas/fields';
import {
  bookedTimeSchema,
  bookedTimesQuerySchema,
  compactDateParam,
  freeSlotSchema,
  slotsQuerySchema,
  vetAvailabilitySchema,
  vetUserIdsSchema,
  withAvailabilityQuerySchema,
} from '@vetcall/shared/schemas/scheduling';
import type { AppContext } from '../../context.ts';
import { cachedJson } from '../../lib/cached-json.ts';
import { actorOf, requireAuth, sessionActorOf } from '../auth/authentication.ts';
import { listAllAvailabilities, listVetBookedTimes, listVetSlots, listVetsWithAvailability } from './slots.service.ts';

/**
 * docs/product-rules.md#api Vets and availability: free slots, vets available on a date, every vet's availability
 * (/api/vets).
 */
/** Built once: a schema built per request costs more than the cached answer it encodes. */
const freeSlotListSchema = z.array(freeSlotSchema);

export const slotRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const security = [{ bearer: [] }];

  app.get(
    '/withavailability/:date',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['scheduling'],
        summary: 'User ids of the active vets with a free slot on a date (YYYYMMDD) as `tz` shows it',
        description: '`tz` is the customer’s IANA zone; without it each vet’s own zone decides the date.',
        security,
        params: z.object({ date: compactDateParam }),
        querystring: withAvailabilityQuerySchema,
        response: { 200: vetUserIdsSchema },
      },
    },
    async (request, reply) => {
      const { date } = request.params;
      const { tz } = request.query;
      // What a type may see differs (the booking window is the customers'); nothing else of the actor counts.
      const key = `withavailability:${sessionActorOf(request).type}:${date}:${tz ?? ''}`;
      return cachedJson(request, reply, context, key, vetUserIdsSchema, () =>
        listVetsWithAvailability(context, actorOf(request), date, tz),
      );
    },
  );

  app.get(
    '/all_availabilities',
    {
      onRequest: requireAuth(context, 'manager'),
      schema: {
        tags: ['scheduling'],
        summary: 'Every active vet with the availability configuration of their first profile (managers)',
        security,
        response: { 200: z.array(vetAvailabilitySchema) },
      },
    },
    async (request) => listAllAvailabilities(context, actorOf(request)),
  );

  app.get(
    '/:vet_id/slots',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['scheduling'],
        summary: 'Free slots of a vet on the dates from..to (at most 62) as `tz` shows them',
        description:
          'Instants are UTC; `date` and `local_start` are in `tz` (default: the profile’s zone). ' +
          '`profile_id` defaults to the vet’s first profile.',
        security,
        params: z.object({ vet_id: idParam }),
        querystring: slotsQuerySchema,
        response: { 200: freeSlotListSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      const { vet_id: vetId } = request.params;
      const { from, to, tz, profile_id: profileId } = request.query;
      const key = `slots:${sessionActorOf(request).type}:${vetId}:${profileId ?? ''}:${from}:${to}:${tz ?? ''}`;
      return cachedJson(request, reply, context, key, freeSlotListSchema, () =>
        listVetSlots(context, actorOf(request), vetId, request.query),
      );
    },
  );

  app.get(
    '/:vet_id/bookedtimes',
    {
      onRequest: requireAuth(context, 'vet', 'manager'),
      schema: {
        tags: ['scheduling'],
        summary: 'Bookings and live holds of a vet starting on the dates from..to as `tz` shows them',
        description:
          'The vet themself and managers only (the availabilityslots month view). `tz` defaults to the zone ' +
          'of the vet’s first profile. Says when, not who.',
        security,
        params: z.object({ vet_id: idParam }),
        querystring: bookedTimesQuerySchema,
        response: { 200: z.array(bookedTimeSchema) },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => listVetBookedTimes(context, actorOf(request), request.params.vet_id, request.query),
  );
};
