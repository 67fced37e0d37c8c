import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appointmentCreatedSchema, quoteQuerySchema, quoteSchema } from '@vetcall/shared/schemas/booking';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { actorOf, requireAuth } from '../../plugins/authentication.ts';
import { discardFilesOnFailure, fileStoreFor, uploadCapFor } from '../appointment-files/file-store.ts';
import { ATTACHMENT_MULTIPART_OPTIONS, receiveUploads } from '../appointment-files/upload-parts.ts';
import {
  type ParsedAppointmentData,
  checkBookingRequest,
  createAppointment,
  parseAppointmentData,
} from './booking.service.ts';
import { quoteAppointment } from './quote.service.ts';

const APPOINTMENT_DATA_FIELD = 'appointment_data';

const notMultipart = () =>
  new AppError('unsupported_media_type', 415, { message: 'Send the appointment as multipart/form-data.' });

/** SPEC §7 Appointments, the booking part: the quote and the appointment request, under /api/appointments. */
export const appointmentRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  // Encapsulated: multipart bodies are parsed only by the routes of this plugin.
  await app.register(multipart, ATTACHMENT_MULTIPART_OPTIONS);
  const customersOnly = { onRequest: requireAuth(context, 'customer') };
  const security = [{ bearer: [] }];
  const store = fileStoreFor(context.config);

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
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      let bodyRead = false;
      try {
        if (!request.isMultipart()) throw notMultipart();
        let data: ParsedAppointmentData | undefined;
        const upload = await receiveUploads(request.parts(), {
          store,
          maxTotalBytes: uploadCapFor(actor),
          fieldNames: [APPOINTMENT_DATA_FIELD],
          // Checked as soon as it arrives: a request bound to fail is refused before its files are read.
          onField: async (_name, value) => {
            data = parseAppointmentData(value);
            await checkBookingRequest(context, actor, data, request.ip);
          },
        });
        bodyRead = true;
        const created = await discardFilesOnFailure(store, upload.files, () =>
          createAppointment({ ...context, store }, actor, data ?? parseAppointmentData(undefined), upload.files),
        );
        return await reply.status(201).send(created);
      } catch (error) {
        // SPEC §8 'Failed to request appointment' is logged; with the code only, no personal data.
        const code = error instanceof AppError ? error.code : 'internal_error';
        request.log.warn({ code }, 'appointment request failed');
        // Refused mid-body (over the cap, a program, a bad appointment_data): the rest of the upload is
        // not read, so the connection cannot carry another request; it closes after this answer.
        if (!bodyRead) void reply.header('connection', 'close');
        throw error;
      }
    },
  );
};
