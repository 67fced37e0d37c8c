import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Locale } from '@vetcall/shared/locales';
import {
  APPOINTMENT_PAGE_SIZE,
  appointmentPageSchema,
  appointmentSchema,
  appointmentUpdatedSchema,
  appointmentUpdateSchema,
  myAppointmentPageSchema,
  myAppointmentsQuerySchema,
  vetCustomerSchema,
} from '@vetcall/shared/schemas/appointment';
import { idParam, localeField, namePageQuerySchema, NEXT_CURSOR_HEADER } from '@vetcall/shared/schemas/fields';
import { timeZoneField } from '@vetcall/shared/schemas/scheduling';
import type { AppContext } from '../../context.ts';
import { cachedForActor } from '../../lib/cached-json.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import {
  listManagerAppointments,
  listOwnAppointments,
  listVetAppointments,
  listVetCustomers,
  VET_CUSTOMERS_PAGE_SIZE,
} from './lists.service.ts';
import { getAppointment, updateAppointment } from './records.service.ts';

const security = [{ bearer: [] }];
const langQuery = z.object({
  /** Language of appointment_status; default: the user's own. */
  lang: localeField.optional(),
});
const dateKeyField = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'invalid_format' });
const pageQuery = langQuery.extend({
  /** next_cursor of the previous page. */
  cursor: z.string().max(200).optional(),
  /** IANA zone the filter's dates are days of; default UTC. */
  tz: timeZoneField.optional(),
});

const localeOf = (query: { lang?: Locale }, actor: { locale: Locale }) => query.lang ?? actor.locale;

const PAGE_DESCRIPTION =
  `Keyset pages of at most ${APPOINTMENT_PAGE_SIZE} rows in (schedule, id) order; pass \`next_cursor\` as ` +
  '`cursor` for the next page (null at the end). Each row: appointment_id, schedule and status_date (ISO ' +
  'instants, UTC), customer_user_id, customer_name, pet_id, pet_name, vet_user_id, vet_name, ' +
  'appointment_status_key, appointment_status (in `lang`), price (cents, EUR). No observations, no PINs.';

/**
 * docs/product-rules.md#api Appointments: the detail, its edit and the manager's list, under /api/appointments. Every
 * answer that carries an appointment is shaped per role (appointment-view.ts); anyone who may not see an
 * appointment gets 404.
 */
export const appointmentRecordRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  app.get(
    '/byid/:id',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['appointments'],
        summary: 'An appointment, shaped for the reader: its customer, its vet or a manager (`viewer`)',
        description:
          'The customer gets their own customer_pin once confirmed and never vet_observations; the vet gets ' +
          'vet_observations and their own vet_pin; managers get vet_observations and no PIN. Anyone else: 404.',
        security,
        params: z.object({ id: idParam }),
        querystring: langQuery,
        response: { 200: appointmentSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return getAppointment(context, actor, request.params.id, localeOf(request.query, actor));
    },
  );

  app.put(
    '/:appointment_id',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['appointments'],
        summary:
          'Edit an appointment (docs/product-rules.md#states): the customer the chief complaint, the vet the observations',
        description:
          'Answers the actor\u2019s user_id. 403 when a field is not the actor\u2019s to change (a customer sending ' +
          'vet_observations, a vet sending description, any manager); 404 when the appointment is not theirs; ' +
          '409 error_updating_appointment unless it is requested, confirmed or completed.',
        security,
        params: z.object({ appointment_id: idParam }),
        body: appointmentUpdateSchema,
        response: { 200: appointmentUpdatedSchema },
        errors: { 403: ['forbidden'], 404: ['not_found'], 409: ['error_updating_appointment'] },
      },
    },
    async (request) => updateAppointment(context, actorOf(request), request.params.appointment_id, request.body),
  );

  app.get(
    '/mine',
    {
      onRequest: requireAuth(context, 'customer'),
      schema: {
        tags: ['appointments'],
        summary: 'The logged-in customer\u2019s own appointments, upcoming or past',
        description:
          '`when=upcoming`: those whose room has not closed (started less than an hour ago or later), soonest ' +
          'first; `when=past`: the rest, latest first. Keyset pages of at most ' +
          `${APPOINTMENT_PAGE_SIZE} rows; pass \`next_cursor\` as \`cursor\` for the next page (null at the end). ` +
          'Each row: appointment_id, schedule (ISO instant, UTC), appointment_status_key, appointment_status ' +
          '(in `lang`), pet_id, pet_name, vet_user_id, vet_name, price (cents, EUR) and `cancel`: whether the ' +
          'customer may cancel it now and, if so, whether it would be refunded. Customers only (403 otherwise).',
        security,
        querystring: myAppointmentsQuerySchema,
        response: { 200: myAppointmentPageSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return cachedForActor(request, reply, context, myAppointmentPageSchema, () =>
        listOwnAppointments(context, actor, {
          when: request.query.when,
          cursor: request.query.cursor,
          locale: localeOf(request.query, actor),
        }),
      );
    },
  );

  app.get(
    '/mngrecord/:param',
    {
      onRequest: requireAuth(context, 'manager'),
      schema: {
        tags: ['appointments'],
        summary:
          'The managers\u2019 appointments list (docs/product-rules.md#manager-screens), filtered by dates and vet',
        description:
          '`param` is the filter `<from>_<to>_<vet>`: `from` and `to` are days YYYY-MM-DD (inclusive, in the ' +
          'query\u2019s `tz`, default UTC), `from` at least 1950-01-01, `to` at most one month after today and ' +
          'not before `from`; `vet` is a vet\u2019s user id or `all`. Example: `2026-11-06_2026-12-06_all`. ' +
          `Anything else is 400 validation_failed on \`param\`. ${PAGE_DESCRIPTION}`,
        security,
        params: z.object({ param: z.string().max(40) }),
        querystring: pageQuery,
        response: { 200: appointmentPageSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return cachedForActor(request, reply, context, appointmentPageSchema, () =>
        listManagerAppointments(context, actor, request.params.param, {
          cursor: request.query.cursor,
          timeZone: request.query.tz ?? 'UTC',
          locale: localeOf(request.query, actor),
        }),
      );
    },
  );
};

/**
 * docs/product-rules.md#vet-screens vet modes: a vet's appointments and customers, under /api/vets (vet_id is vets.id).
 */
export const vetAppointmentRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const vetOrManager = { onRequest: requireAuth(context, 'vet', 'manager') };
  const params = z.object({ vet_id: idParam });

  app.get(
    '/appointments/:vet_id',
    {
      ...vetOrManager,
      schema: {
        tags: ['vets'],
        summary: 'A vet\u2019s appointments (the vet themself or a manager), optionally between two days',
        description:
          '`from` and `to` are days YYYY-MM-DD (inclusive, in `tz`, default UTC; each optional): `from` at least ' +
          `1950-01-01, \`to\` at most one month after today. Another vet: 404. ${PAGE_DESCRIPTION}`,
        security,
        params,
        querystring: pageQuery.extend({ from: dateKeyField.optional(), to: dateKeyField.optional() }),
        response: { 200: appointmentPageSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { query } = request;
      return cachedForActor(request, reply, context, appointmentPageSchema, () =>
        listVetAppointments(context, actor, request.params.vet_id, {
          from: query.from,
          to: query.to,
          cursor: query.cursor,
          timeZone: query.tz ?? 'UTC',
          locale: localeOf(query, actor),
        }),
      );
    },
  );

  app.get(
    '/customers/:vet_id',
    {
      ...vetOrManager,
      schema: {
        tags: ['vets'],
        summary: 'The customers who have appointments with a vet (the vet themself or a manager), by name',
        description:
          `Keyset pages of at most ${VET_CUSTOMERS_PAGE_SIZE} customers in (name, id) order. The answer stays a ` +
          'bare array; when more follow, the `X-Next-Cursor` header carries the cursor to pass as `cursor` for ' +
          'the next page (no header at the end). Another vet: 404.',
        security,
        params,
        querystring: namePageQuerySchema,
        response: { 200: z.array(vetCustomerSchema) },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      const page = await listVetCustomers(context, actorOf(request), request.params.vet_id, request.query);
      if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.customers;
    },
  );
};
