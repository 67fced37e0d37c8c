import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  confirmPaymentSchema,
  hashParam,
  paymentLocaleParam,
  paymentLookupSchema,
} from '@vetcall/shared/schemas/booking';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { confirmPayment, lookupPayment, type PaymentDeps } from './payments.service.ts';

/**
 * docs/product-rules.md#request-sent, #api Appointments: the Request Sent page's two calls, under /api/appointments.
 * Only the customer who owns the appointment; an unknown payment hash and someone else's both answer 404
 * invalid_payment_hash.
 */
export const paymentLookupRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const deps: PaymentDeps = { ...context, log: app.log, stripe: null };
  const customerOnly = requireAuth(context, 'customer');
  const security = [{ bearer: [] }];

  app.get(
    '/paymenthash/:payment_hash',
    {
      onRequest: customerOnly,
      schema: {
        tags: ['appointments'],
        summary: 'The payment of one’s own appointment, by payment hash',
        security,
        params: z.object({ payment_hash: hashParam }),
        response: { 200: paymentLookupSchema },
        errors: { 404: ['invalid_payment_hash'] },
      },
    },
    async (request) => lookupPayment(deps, actorOf(request), request.params.payment_hash),
  );

  app.put(
    '/confirmpayment/:payment_hash/:language',
    {
      onRequest: customerOnly,
      schema: {
        tags: ['appointments'],
        summary: 'Confirms that one’s own appointment is paid (idempotent)',
        description: '`{ success: true }` once paid, every time; 409 payment_not_completed before.',
        security,
        params: z.object({ payment_hash: hashParam, language: paymentLocaleParam }),
        response: { 200: confirmPaymentSchema },
        errors: { 404: ['invalid_payment_hash'], 409: ['payment_not_completed'] },
      },
    },
    async (request) => confirmPayment(deps, actorOf(request), request.params.payment_hash),
  );
};
