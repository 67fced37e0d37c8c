import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_LOCALE, type Locale } from '@vetcall/shared/locales';
import {
  checkoutPaySchema,
  checkoutResultSchema,
  checkoutSchema,
  hashParam,
  paymentFormSchema,
  paymentLocaleParam,
} from '@vetcall/shared/schemas/booking';
import { localeField } from '@vetcall/shared/schemas/fields';
import type { AppContext } from '../../context.ts';
import { translate } from '../../i18n.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { escapeHtml } from '../../providers/mail/templates.ts';
import { stripeClientFor } from '../../providers/payments/stripe.ts';
import {
  cancelCheckout,
  getCheckout,
  type PaymentDeps,
  payCheckout,
  startPayment,
} from '../appointments/payments.service.ts';
import { handleStripeWebhook } from './stripe-webhook.ts';

/** A payment form is six short fields. */
const FORM_BODY_LIMIT = 16 * 1024;
/** Stripe's Checkout Session events are a few KB; this leaves room. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

const paymentHashParams = z.object({ payment_hash: hashParam });
const langQuery = z.object({ lang: localeField.optional() });
const webhookAckSchema = z.object({ received: z.literal(true) });

function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/.test(request.headers.accept ?? '');
}

/**
 * The payment form is posted by the browser itself (a full page load), so its errors are shown as a small
 * page in the form's language instead of raw JSON; API clients (no text/html in Accept) get the JSON.
 */
async function errorPageForBrowsers(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode < 400 || !wantsHtml(request) || typeof payload !== 'string') return payload;
  const params = z.object({ locale: paymentLocaleParam }).safeParse(request.params);
  const locale: Locale = params.success ? params.data.locale : DEFAULT_LOCALE;
  let code = 'internal_error';
  try {
    const body = JSON.parse(payload) as { error?: unknown };
    if (typeof body.error === 'string') code = body.error;
  } catch {
    // Not our JSON error body: the generic message.
  }
  let message: string;
  try {
    message = translate(locale, `errors.${code}`);
  } catch {
    message = translate(locale, 'errors.internal_error');
  }
  void reply.type('text/html; charset=utf-8');
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(translate(locale, 'app.name'))}</title></head>
<body style="font-family:sans-serif;line-height:1.5;color:#222;max-width:36rem;margin:3rem auto;padding:0 1rem">
<p role="alert">${escapeHtml(message)}</p>
<p><a href="/customer">${escapeHtml(translate(locale, 'common.back'))}</a></p>
</body></html>`;
}

/**
 * docs/product-rules.md#api Payment, under /api/payment: the browser's payment form, the built-in checkout's API
 * (PAYMENT_PROVIDER=builtin) and Stripe's webhook (PAYMENT_PROVIDER=stripe).
 */
export const paymentRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const { config } = context;
  const stripe = stripeClientFor(config.payment);
  const deps: PaymentDeps = { ...context, log: app.log, stripe };
  const security = [{ bearer: [] }];

  // A browser form post is urlencoded; only the routes of this plugin accept it.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.post(
    '/:locale',
    {
      onSend: errorPageForBrowsers,
      schema: {
        tags: ['payments'],
        summary: 'The booking screen’s payment form (docs/product-rules.md#api): 303 to where the customer pays',
        description:
          'A browser form post (application/x-www-form-urlencoded). `auth_token` is the session token of the ' +
          'customer who owns the appointment (`customer_user_id`). 303 to Request Confirmed when the ' +
          'appointment is free (marked paid at 0), to /checkout/{payment_hash} (built-in provider) or to ' +
          'Stripe Checkout; to Request Sent when it is already paid. 409 payment_closed when the appointment ' +
          'can no longer be paid (its hold lapsed, it failed or was canceled). Errors are JSON, or a short page ' +
          'in the form\u2019s language when Accept names text/html.',
        consumes: ['application/x-www-form-urlencoded'],
        params: z.object({ locale: paymentLocaleParam }),
        body: paymentFormSchema,
        response: { 303: z.null().describe('Location: where the browser goes next') },
        errors: {
          401: ['unauthorized'],
          403: ['forbidden'],
          409: ['payment_closed'],
          502: ['payment_provider_unavailable'],
        },
      },
    },
    async (request, reply) => {
      const { location } = await startPayment(deps, request.params.locale, request.body);
      return reply.redirect(location, 303);
    },
  );

  if (config.payment.provider === 'builtin') {
    const customerOnly = requireAuth(context, 'customer');

    app.get(
      '/checkout/:payment_hash',
      {
        onRequest: customerOnly,
        schema: {
          tags: ['payments'],
          summary: 'What the built-in checkout shows (the customer who owns the appointment)',
          description:
            '`lang` is the language of the page: the product is named in it (default: as the booking stored it).',
          security,
          params: paymentHashParams,
          querystring: langQuery,
          response: { 200: checkoutSchema },
          errors: { 404: ['invalid_payment_hash'] },
        },
      },
      async (request) => getCheckout(deps, actorOf(request), request.params.payment_hash, request.query.lang),
    );

    app.post(
      '/checkout/:payment_hash/pay',
      {
        onRequest: customerOnly,
        schema: {
          tags: ['payments'],
          summary: 'Pay on the built-in (test) checkout',
          description:
            'A test checkout: no money moves. 4242 4242 4242 4242 pays; 4000 0000 0000 0002 and every other ' +
            'number are declined (402 card_declined). Rate-limited per appointment. `lang` is the language of ' +
            'the page the browser goes to next (default: the customer’s).',
          security,
          params: paymentHashParams,
          querystring: langQuery,
          body: checkoutPaySchema,
          response: { 200: checkoutResultSchema },
          errors: {
            402: ['card_declined'],
            404: ['invalid_payment_hash'],
            409: ['payment_closed'],
            429: ['too_many_requests'],
          },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        return payCheckout(deps, actor, request.params.payment_hash, request.body, request.query.lang ?? actor.locale);
      },
    );

    app.post(
      '/checkout/:payment_hash/cancel',
      {
        onRequest: customerOnly,
        schema: {
          tags: ['payments'],
          summary: 'Leave the built-in checkout: the appointment is canceled and its slot given back',
          description: '`lang` is the language of the page the browser goes to next (default: the customer\u2019s).',
          security,
          params: paymentHashParams,
          querystring: langQuery,
          response: { 200: checkoutResultSchema },
          errors: { 404: ['invalid_payment_hash'], 409: ['payment_closed'] },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        return cancelCheckout(deps, actor, request.params.payment_hash, request.query.lang ?? actor.locale);
      },
    );
  }

  const webhookSecret = config.payment.stripeWebhookSecret;
  if (stripe && webhookSecret) {
    // The signature covers the exact bytes Stripe sent: this route keeps the raw body, unparsed.
    await app.register(async (webhook) => {
      webhook.removeAllContentTypeParsers();
      webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
        done(null, body),
      );
      webhook.post(
        '/webhook/stripe',
        {
          schema: {
            tags: ['payments'],
            summary: 'Stripe’s webhook: Checkout Session and charge.refunded events, signed (Stripe-Signature)',
            description:
              'Verified on the raw body with STRIPE_WEBHOOK_SECRET (300 s tolerance); 400 ' +
              'webhook_signature_invalid otherwise. Each event id is handled once.',
            response: { 200: webhookAckSchema },
            errors: { 400: ['webhook_signature_invalid'] },
          },
        },
        async (request) => {
          const header = request.headers['stripe-signature'];
          return handleStripeWebhook(
            { ...deps, stripe, webhookSecret },
            Buffer.isBuffer(request.body) ? request.body : undefined,
            Array.isArray(header) ? header.join(',') : header,
          );
        },
      );
    });
  }
};
