import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emailField } from '@vetcall/shared/schemas/fields';
import {
  emailUpdateSchema,
  managerProfileSchema,
  managerSchema,
  nameUpdateSchema,
  newStaffBodySchema,
  phoneUpdateSchema,
  profileUpdateResponseSchema,
  publicVetSchema,
  specialtyUpdateSchema,
  staffTypeParamsSchema,
  userIdParamsSchema,
  userRowSchema,
  userTypeParamsSchema,
  vetProfileSchema,
  vetSchema,
} from '@vetcall/shared/schemas/staff';
import type { AppContext } from '../../context.ts';
import type { ErrorAnswers } from '../../plugins/openapi-operations.ts';
import { cachedJson } from '../../lib/cached-json.ts';
import { actorOf, requireAuth, sessionActorOf } from '../auth/authentication.ts';
import {
  changeUserField,
  createStaffUser,
  getManagerByEmail,
  getVetByEmail,
  listUsers,
  removeStaffUser,
  updateManagerProfile,
  updateVetProfile,
} from './staff.service.ts';

const userIdResponse = z.object({ user_id: z.number().int() });
const emailParams = z.object({ email: emailField });

/** docs/product-rules.md#api Users: the manager's user administration and the staff's own data, under /api/users. */
/** Built once: a schema built per request costs more than the cached answer it encodes. */
const userRowListSchema = z.array(userRowSchema);
const publicVetListSchema = z.array(publicVetSchema);

export const staffRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const security = [{ bearer: [] }];
  const anyone = requireAuth(context);
  const managersOnly = requireAuth(context, 'manager');

  app.get(
    '/:type',
    {
      onRequest: anyone,
      schema: {
        tags: ['users'],
        summary:
          'Users of a type (manager); customers and vets get the public view of active vets only (user_id, vet_id, name, specialty)',
        security,
        params: userTypeParamsSchema,
        response: { 200: z.union([userRowListSchema, publicVetListSchema]) },
        errors: { 403: ['forbidden'] },
      },
    },
    async (request, reply) => {
      const actorType = sessionActorOf(request).type;
      const { type } = request.params;
      // Managers see every field, customers and vets the public view: the list depends on the type alone.
      // Each view is encoded by its own schema, not the union, which tried every row against both.
      const view = actorType === 'manager' ? userRowListSchema : publicVetListSchema;
      return cachedJson(request, reply, context, `users:${actorType}:${type}`, view, async () => ({
        // Whitelisted explicitly: the public view never carries contact data, whatever the service returned.
        value: view.parse(await listUsers(context, actorOf(request), type)),
      }));
    },
  );

  app.post(
    '/:type',
    {
      onRequest: managersOnly,
      schema: {
        tags: ['users'],
        summary:
          'Create a vet (name, email, password, confirmation, phone, specialty) or a manager (no phone, specialty)',
        security,
        params: staffTypeParamsSchema,
        body: newStaffBodySchema,
        response: { 201: userIdResponse },
        errors: { 409: ['email_in_use'] },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createStaffUser(context, actorOf(request), request.params.type, request.body)),
  );

  app.delete(
    '/:user_id',
    {
      onRequest: managersOnly,
      schema: {
        tags: ['users'],
        summary: 'Deactivate a vet or manager (history keeps the name); not oneself, not the last manager',
        security,
        params: userIdParamsSchema,
        response: { 200: z.object({ user_id: z.number().int(), active: z.literal(false) }) },
        errors: { 403: ['customers_are_view_only'], 404: ['not_found'], 409: ['cannot_remove_self', 'last_manager'] },
      },
    },
    async (request) => removeStaffUser(context, actorOf(request), request.params.user_id),
  );

  const fieldRoute = (
    path: string,
    summary: string,
    body: z.ZodObject,
    allowed: readonly ('customer' | 'vet' | 'manager')[],
    { onRequest = managersOnly, errors = {} }: { onRequest?: typeof anyone; errors?: ErrorAnswers } = {},
  ) =>
    app.post(
      `/${path}/:user_id`,
      {
        onRequest,
        schema: {
          tags: ['users'],
          summary,
          security,
          params: userIdParamsSchema,
          body,
          response: { 200: userIdResponse },
          errors: { 404: ['not_found'], ...errors },
        },
      },
      async (request) =>
        changeUserField(
          context,
          actorOf(request),
          (request.params as { user_id: number }).user_id,
          request.body as never,
          allowed,
        ),
    );
  fieldRoute('name', 'Change the name of a vet or manager', nameUpdateSchema, ['vet', 'manager']);
  fieldRoute(
    'email',
    'Change the email of a vet or manager (ends their sessions; a vet loses the calendar link)',
    emailUpdateSchema,
    ['vet', 'manager'],
    { errors: { 409: ['email_in_use'] } },
  );
  fieldRoute('vetspecialty', 'Change a vet\u2019s specialty', specialtyUpdateSchema, ['vet']);
  fieldRoute('vetphone', 'Change a vet\u2019s phone', phoneUpdateSchema, ['vet']);
  fieldRoute(
    'custphone',
    'Change one\u2019s own phone as a customer (managers only view customers)',
    phoneUpdateSchema,
    ['customer'],
    { onRequest: anyone, errors: { 403: ['forbidden', 'customers_are_view_only'] } },
  );

  app.get(
    '/manager/byemail/:email',
    {
      onRequest: managersOnly,
      schema: {
        tags: ['users'],
        security,
        params: emailParams,
        response: { 200: managerSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => getManagerByEmail(context, actorOf(request), request.params.email),
  );

  app.put(
    '/manager/:user_id',
    {
      onRequest: managersOnly,
      schema: {
        tags: ['users'],
        summary: 'A manager\u2019s own data; an email change ends every session',
        security,
        params: userIdParamsSchema,
        body: managerProfileSchema,
        response: { 200: profileUpdateResponseSchema },
        errors: { 403: ['forbidden'], 404: ['not_found'], 409: ['email_in_use'] },
      },
    },
    async (request) => updateManagerProfile(context, actorOf(request), request.params.user_id, request.body),
  );

  app.get(
    '/vet/byemail/:email',
    {
      onRequest: requireAuth(context, 'vet', 'manager'),
      schema: {
        tags: ['users'],
        summary: 'A vet\u2019s data: the vet or a manager',
        security,
        params: emailParams,
        response: { 200: vetSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => getVetByEmail(context, actorOf(request), request.params.email),
  );

  app.put(
    '/vet/:user_id',
    {
      onRequest: requireAuth(context, 'vet', 'manager'),
      schema: {
        tags: ['users'],
        summary:
          'A vet\u2019s data (the vet, or a manager); an email change ends sessions and removes the calendar link',
        security,
        params: userIdParamsSchema,
        body: vetProfileSchema,
        response: { 200: profileUpdateResponseSchema },
        errors: { 403: ['forbidden'], 404: ['not_found'], 409: ['email_in_use'] },
      },
    },
    async (request) => updateVetProfile(context, actorOf(request), request.params.user_id, request.body),
  );
};
