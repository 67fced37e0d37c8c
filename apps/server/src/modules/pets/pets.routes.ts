import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayKey } from '@vetcall/shared/dates';
import type { Locale } from '@vetcall/shared/locales';
import { APPOINTMENT_PAGE_SIZE } from '@vetcall/shared/schemas/appointment';
import { idParam, localeField, pageQuerySchema } from '@vetcall/shared/schemas/fields';
import {
  petDeletionSchema,
  petIdParamsSchema,
  petInputSchemaFor,
  petRecordSchema,
  petSchema,
} from '@vetcall/shared/schemas/pet';
import type { AppContext } from '../../context.ts';
import { cachedForActor } from '../../lib/cached-json.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import {
  applyPetChanges,
  createPet,
  deletePet,
  getPet,
  getPetRecord,
  listCustomerPets,
  updatePet,
} from './pets.service.ts';

/** Breed names come back in `?lang=`, else in the user's own language. */
const langQuery = z.object({ lang: localeField.optional() });
const customerParams = z.object({ customer_id: idParam });
/** Within PostgreSQL's integer range, as idParam: a bigger id is a 400, not a query the database refuses (a 500). */
const petIdField = z.number().int().positive().max(2_147_483_647);

/** The bodies that carry pets, their births checked against the clinic's today on the server's clock. */
function petBodySchemas(context: AppContext) {
  const petInputSchema = petInputSchemaFor(() => todayKey(context.clock.now(), context.config.clinicTimeZone));
  const petChangesSchema = z.object({
    create: z.array(petInputSchema).max(50).default([]),
    update: z
      .array(petInputSchema.extend({ pet_id: petIdField }))
      .max(50)
      .default([]),
    delete: z.array(petIdField).max(50).default([]),
  });
  return { petInputSchema, petChangesSchema };
}

/** docs/product-rules.md#api Pets, under /api/pets (breeds are registered separately). */
export const petRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const auth = { onRequest: requireAuth(context) };
  const security = [{ bearer: [] }];
  const localeOf = (query: { lang?: Locale }, actor: { locale: Locale }) => query.lang ?? actor.locale;
  const { petInputSchema, petChangesSchema } = petBodySchemas(context);

  app.post(
    '/',
    {
      onRequest: requireAuth(context, 'customer'),
      schema: {
        tags: ['pets'],
        summary: 'Add a pet to one\u2019s own record',
        security,
        querystring: langQuery,
        body: petInputSchema,
        response: { 201: petSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await createPet(context, actor, request.body, localeOf(request.query, actor)));
    },
  );

  app.put(
    '/:pet_id',
    {
      onRequest: requireAuth(context, 'customer'),
      schema: {
        tags: ['pets'],
        summary: 'Change one of one\u2019s own pets',
        security,
        params: petIdParamsSchema,
        querystring: langQuery,
        body: petInputSchema,
        response: { 200: petSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return updatePet(context, actor, request.params.pet_id, request.body, localeOf(request.query, actor));
    },
  );

  app.delete(
    '/:pet_id',
    {
      onRequest: requireAuth(context, 'customer'),
      schema: {
        tags: ['pets'],
        summary: 'Remove a pet; one with appointment history is archived (archived: true) to keep the history',
        security,
        params: petIdParamsSchema,
        response: { 200: petDeletionSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => deletePet(context, actorOf(request), request.params.pet_id),
  );

  app.get(
    '/customer/:customer_id',
    {
      ...auth,
      schema: {
        tags: ['pets'],
        summary: 'The pets of a customer (customer_id of docs/product-rules.md#entities Customer), not archived',
        security,
        params: customerParams,
        querystring: langQuery,
        response: { 200: z.array(petSchema) },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return listCustomerPets(context.db, actor, request.params.customer_id, localeOf(request.query, actor));
    },
  );

  app.post(
    '/customer/:customer_id/changes',
    {
      onRequest: requireAuth(context, 'customer'),
      schema: {
        tags: ['pets'],
        summary: 'Apply the pet creates, updates and deletes of one Save in a single transaction',
        security,
        params: customerParams,
        querystring: langQuery,
        body: petChangesSchema,
        response: {
          200: z.object({
            created: z.array(petSchema),
            updated: z.array(petSchema),
            removed: z.array(petDeletionSchema),
          }),
        },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return applyPetChanges(context, actor, request.params.customer_id, request.body, localeOf(request.query, actor));
    },
  );

  app.get(
    '/byid/:pet_id',
    {
      ...auth,
      schema: {
        tags: ['pets'],
        security,
        params: petIdParamsSchema,
        querystring: langQuery,
        response: { 200: petSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return getPet(context.db, actor, request.params.pet_id, localeOf(request.query, actor));
    },
  );

  app.get(
    '/record/:pet_id/:language',
    {
      ...auth,
      schema: {
        tags: ['pets'],
        summary: 'A pet\u2019s record: details, age and appointment history',
        description:
          `The history is newest first, in keyset pages of at most ${APPOINTMENT_PAGE_SIZE} appointments: pass ` +
          '`history_next_cursor` as `cursor` for the next page (null at the end).',
        security,
        params: petIdParamsSchema.extend({ language: localeField }),
        querystring: pageQuerySchema,
        response: { 200: petRecordSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) =>
      cachedForActor(request, reply, context, petRecordSchema, () =>
        getPetRecord(context, actorOf(request), request.params.pet_id, request.params.language, request.query),
      ),
  );
};
