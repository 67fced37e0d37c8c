import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appointmentSchema, cancelAppointmentSchema } from '@vetcall/shared/schemas/appointment';
import { idParam, localeField } from '@vetcall/shared/schemas/fields';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { cancelAppointment } from './cancellation.service.ts';

/** The appointment's life after booking, under /api/appointments: cancel (reschedule and complete follow). */
export const appointmentLifecycleRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  app.post(
    '/:appointment_id/cancel',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['appointments'],
        summary: 'Cancel an appointment; answers it as the reader sees it (status TK_Canceled)',
        description:
          'The customer cancels their own until the start, refunded in full until 24 hours before it; the vet ' +
          '(their own) and managers until its end, always refunded. One still waiting for its payment is ' +
          'cancelled with nothing to refund. The time is free again at once; both parties are mailed with an ' +
          '.ics CANCEL. 404 not the actor\u2019s to see; 409 invalid_transition (completed, cancelled, failed) ' +
          'or cancellation_closed (too late); 400 validation_failed (reason over 500 characters).',
        security: [{ bearer: [] }],
        params: z.object({ appointment_id: idParam }),
        querystring: z.object({ lang: localeField.optional() }),
        body: cancelAppointmentSchema.nullish(),
        response: { 200: appointmentSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return cancelAppointment(
        context,
        actor,
        request.params.appointment_id,
        request.body ?? {},
        request.query.lang ?? actor.locale,
      );
    },
  );
};
