import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emailField, idParam } from '@vetcall/shared/schemas/fields';
import {
  customerProfileSchema,
  customerRegistrationSchema,
  customerSchema,
  emailCheckResponseSchema,
  userIdResponseSchema,
} from '@vetcall/shared/schemas/customer';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { originOf } from '../../lib/request-origin.ts';
import { checkEmail, getVisibleCustomer, registerCustomer, updateCustomer } from './customers.service.ts';

const emailParams = z.object({ email: emailField });
const userIdParams = z.object({ user_id: idParam });

/** docs/product-rules.md#api Users: the customer routes and the email check, under /api/users. */
export const customerRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  app.get(
    '/checkemail/:email',
    {
      schema: {
        tags: ['customers'],
        summary: 'Whether an email is taken: a non-empty list when it is (no auth; rate-limited per IP)',
        params: emailParams,
        response: { 200: emailCheckResponseSchema },
        errors: { 429: ['too_many_requests'] },
      },
    },
    async (request) => checkEmail(context, request.params.email, request.ip),
  );

  app.post(
    '/customer',
    {
      schema: {
        tags: ['customers'],
        summary: 'Register a new customer (no auth); 409 email_in_use when the email is taken',
        body: customerRegistrationSchema,
        response: { 201: userIdResponseSchema },
        errors: { 409: ['email_in_use'], 429: ['too_many_requests'] },
      },
    },
    async (request, reply) => {
      const created = await registerCustomer(context, request.body, originOf(request));
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/customer/byemail/:email',
    {
      onRequest: requireAuth(context),
      schema: {
        tags: ['customers'],
        summary: 'A customer by email: the customer, a manager, or a vet with an appointment with them',
        security: [{ bearer: [] }],
        params: emailParams,
        response: { 200: customerSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => getVisibleCustomer(context.db, actorOf(request), { email: request.params.email }),
  );

  app.put(
    '/customer/:user_id',
    {
      onRequest: requireAuth(context, 'customer'),
      schema: {
        tags: ['customers'],
        summary: 'Update one\u2019s own customer data; an email change ends every session (log in again)',
        security: [{ bearer: [] }],
        params: userIdParams,
        body: customerProfileSchema,
        response: { 200: userIdResponseSchema.extend({ email_changed: z.boolean() }) },
        errors: { 404: ['not_found'], 409: ['email_in_use'] },
      },
    },
    async (request) => {
      const result = await updateCustomer(context, actorOf(request), request.params.user_id, request.body);
      return { user_id: result.user_id, email_changed: result.emailChanged };
    },
  );
};
