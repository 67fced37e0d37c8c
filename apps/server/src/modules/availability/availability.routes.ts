import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { availabilityProfileSchema, availabilityProfileUpdateSchema } from '@vetcall/shared/schemas/availability';
import { idParam } from '@vetcall/shared/schemas/fields';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import {
  getAvailabilityProfile,
  listCalendarProfiles,
  TIME_LIMITS,
  updateAvailabilityProfile,
} from './availability.service.ts';

const profileParams = z.object({ vet_id: idParam, profile_id: idParam });

/** docs/product-rules.md#api Vets and availability: profiles and time limits, under /api/vets. */
export const availabilityRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const security = [{ bearer: [] }];
  const staff = requireAuth(context, 'vet', 'manager');

  app.get(
    '/calendarprofiles/:vet_id',
    {
      onRequest: staff,
      schema: {
        tags: ['availability'],
        summary: 'The availability (calendar) profiles of a vet: the vet or a manager',
        security,
        params: z.object({ vet_id: idParam }),
        response: { 200: z.array(z.object({ id: z.number().int(), name: z.string() })) },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => listCalendarProfiles(context, actorOf(request), request.params.vet_id),
  );

  app.get(
    '/availability/:vet_id/:profile_id',
    {
      onRequest: staff,
      schema: {
        tags: ['availability'],
        security,
        params: profileParams,
        response: { 200: availabilityProfileSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) =>
      getAvailabilityProfile(context, actorOf(request), request.params.vet_id, request.params.profile_id),
  );

  app.patch(
    '/availability/:vet_id/:profile_id',
    {
      onRequest: staff,
      schema: {
        tags: ['availability'],
        summary: 'Replace a profile: weekly pattern and date-specific hours; intervals must not overlap',
        security,
        params: profileParams,
        body: availabilityProfileUpdateSchema,
        response: { 200: availabilityProfileSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) =>
      updateAvailabilityProfile(
        context,
        actorOf(request),
        request.params.vet_id,
        request.params.profile_id,
        request.body,
      ),
  );

  app.get(
    '/time-limits',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['availability'],
        summary: 'Selectable times for working intervals (every 30 minutes, 00:00 to 24:00)',
        security,
        response: { 200: z.array(z.object({ time_limit_id: z.number().int(), time_limit: z.string() })) },
      },
    },
    async () => TIME_LIMITS,
  );
};
