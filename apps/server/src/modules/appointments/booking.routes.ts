import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appointmentCreatedSchema, quoteQuerySchema, quoteSchema } from '@vetcall/shared/schemas/booking';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { uploadCapFor } from '@vetcall/shared/appointment-rules';
import { ATTACHMENT_MULTIPART_OPTIONS, receiveAttachments } from './attachment-uploads.ts';
import {
  type ParsedAppointmentData,
  checkBookingRequest,
  createAppointment,
  parseAppointmentData,
} from './booking.service.ts';
import { quoteAppointment } from './quote.service.ts';

const APPOINTMENT_DATA_FIELD = 'appointment_data';

/**
 * docs/product-rules.md#api Appointments, the booking part: the quote and the appointment request, under
 * /api/appointments.
 */
export const appointmentRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  // Encapsulated: multipart bodies are parsed only by the routes of this plugin.
  await app.register(multipart, ATTACHMENT_MULTIPART_OPTIONS);
  const customersOnly = { onRequest: requireAuth(context, 'customer') };
  const security = [{ bearer: [] }];
  const store = context.files;

  app.get(
    '/quote',
    {
      ...customersOnly,
      schema: {
        tags: ['appointments'],
        summary:
          'The price of booking a vet, shown before paying (customers): the product price minus the vet\u2019s ' +
          'discount, or 0 with a valid included access code; item_name in the customer\u2019s language. ' +
          '404 unknown vet, 409 no_product, 400 invalid_access_code.',
        security,
        querystring: quoteQuerySchema,
        response: { 200: quoteSchema },
        errors: {
          400: ['invalid_access_code'],
          404: ['not_found'],
          409: ['no_product'],
          429: ['too_many_requests'],
        },
      },
    },
    async (request) => quoteAppointment(context, actorOf(request), request.query, request.ip),
  );

  app.post(
    '/',
    {
      ...customersOnly,
      schema: {
        tags: ['appointments'],
        summary:
          'Request an appointment (customers), multipart: `appointment_data` (JSON, appointmentDataSchema) and ' +
          '`files[]` (20 MB in total; programs refused). Turns the customer\u2019s live hold into an appointment ' +
          'awaiting payment. 403 not the session\u2019s customer or not their pet; 409 hold_not_found / ' +
          'hold_expired; 400 invalid_access_code; 413 files_too_large; 415 file_type_not_allowed.',
        security,
        consumes: ['multipart/form-data'],
        response: { 201: appointmentCreatedSchema },
        errors: {
          400: ['invalid_access_code'],
          403: ['forbidden'],
          404: ['not_found'],
          409: ['hold_not_found', 'hold_expired', 'no_product'],
          413: ['files_too_large'],
          415: ['file_type_not_allowed'],
          429: ['too_many_requests'],
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      let data: ParsedAppointmentData | undefined;
      try {
        const created = await receiveAttachments(request, reply, {
          store,
          limits: () => ({ cap: uploadCapFor(actor.type), remaining: uploadCapFor(actor.type) }),
          fieldName: APPOINTMENT_DATA_FIELD,
          onField: async (value) => {
            data = parseAppointmentData(value);
            await checkBookingRequest(context, actor, data, request.ip);
          },
          save: (_field, files) => createAppointment(context, actor, data ?? parseAppointmentData(undefined), files),
        });
        return await reply.status(201).send(created);
      } catch (error) {
        // 'Failed to request appointment' is logged with the code only, no personal data.
        const code = error instanceof AppError ? error.code : 'internal_error';
        request.log.warn({ code }, 'appointment request failed');
        throw error;
      }
    },
  );
};
