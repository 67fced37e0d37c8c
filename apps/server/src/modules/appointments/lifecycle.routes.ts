import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appointmentSchema,
  cancelAppointmentSchema,
  rescheduleAppointmentSchema,
} from '@vetcall/shared/schemas/appointment';
import { idParam, localeField } from '@vetcall/shared/schemas/fields';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { cancelAppointment } from './cancellation.service.ts';
import { completeAppointment } from './completion.service.ts';
import { rescheduleAppointment } from './reschedule.service.ts';

const params = z.object({ appointment_id: idParam });
const querystring = z.object({ lang: localeField.optional() });

/** The appointment's life after booking, under /api/appointments: cancel, reschedule, complete. */
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
        params,
        querystring,
        body: cancelAppointmentSchema.nullish(),
        response: { 200: appointmentSchema },
        errors: { 404: ['not_found'], 409: ['invalid_transition', 'cancellation_closed'] },
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

  app.post(
    '/:appointment_id/reschedule',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['appointments'],
        summary: 'Move an appointment to a time held first; answers it as the reader sees it',
        description:
          'The one moving it holds the new time first (POST /api/scheduling/holds, on the same vet, as long as ' +
          'the appointment) and names the hold. The customer moves their own until 24 hours before the start; ' +
          'the vet (their own) and managers until the start. The old time is given back and the new one taken ' +
          'in one transaction; price, status and PINs stay; both parties are mailed (a confirmed appointment ' +
          'with its invitation again, a requested one goes back to the vet to confirm). 404 not the actor\u2019s ' +
          'to see; 409 invalid_transition, reschedule_closed, hold_not_found or hold_expired; 400 ' +
          'validation_failed.',
        security: [{ bearer: [] }],
        params,
        querystring,
        body: rescheduleAppointmentSchema,
        response: { 200: appointmentSchema },
        errors: {
          404: ['not_found'],
          409: ['invalid_transition', 'reschedule_closed', 'hold_not_found', 'hold_expired'],
        },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return rescheduleAppointment(
        context,
        actor,
        request.params.appointment_id,
        request.body,
        request.query.lang ?? actor.locale,
      );
    },
  );

  app.post(
    '/:appointment_id/complete',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['appointments'],
        summary: 'The vet marks their confirmed appointment done (status TK_Completed)',
        description:
          'Once it has started, before its room closes by itself one hour after the start. 404 not the ' +
          'actor\u2019s to see; 403 customers and managers; 409 invalid_transition (not confirmed) or ' +
          'completion_too_early.',
        security: [{ bearer: [] }],
        params,
        querystring,
        response: { 200: appointmentSchema },
        errors: {
          403: ['forbidden'],
          404: ['not_found'],
          409: ['invalid_transition', 'completion_too_early'],
        },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return completeAppointment(context, actor, request.params.appointment_id, request.query.lang ?? actor.locale);
    },
  );
};
