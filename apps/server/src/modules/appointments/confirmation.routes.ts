import { originOf } from '../../lib/request-origin.ts';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appointmentInfoSchema,
  confirmAppointmentResultSchema,
  confirmAppointmentSchema,
  hashParam,
} from '@vetcall/shared/schemas/booking';
import type { AppContext } from '../../context.ts';
import { confirmAppointment, getAppointmentInfo } from './confirmation.service.ts';

const hashParams = z.object({ hash: hashParam });

/**
 * The vet's confirmation page (docs/product-rules.md#confirmation-page), under /api/appointments. No login: the vet
 * comes from the emailed link; the 128-bit hash (and, to confirm, the vet's registered email) is the credential.
 */
export const appointmentConfirmationRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (
  app,
  { context },
) => {
  app.get(
    '/info/:hash',
    {
      schema: {
        tags: ['appointments'],
        summary: 'What the confirmation page shows: time, duration, status, vet, pet and the vet’s zone',
        params: hashParams,
        response: { 200: appointmentInfoSchema },
        errors: { 404: ['not_found'], 429: ['too_many_requests'] },
      },
    },
    async (request) => getAppointmentInfo(context, request.params.hash, request.ip),
  );

  app.post(
    '/confirm/:hash',
    {
      schema: {
        tags: ['appointments'],
        summary: 'The owning vet confirms (maybe at another time); answers the vet’s PIN and mails both parties',
        params: hashParams,
        body: confirmAppointmentSchema,
        response: { 200: confirmAppointmentResultSchema },
        errors: {
          400: ['cant_activate_appointment'],
          409: ['already_confirmed', 'appointment_not_confirmable', 'slot_taken'],
          429: ['too_many_requests'],
        },
      },
    },
    async (request, reply) => {
      // The answer is a PIN that opens the video room: no cache may keep it.
      void reply.header('cache-control', 'no-store');
      return confirmAppointment(context, request.params.hash, request.body, {
        origin: originOf(request),
        log: request.log,
      });
    },
  );
};
