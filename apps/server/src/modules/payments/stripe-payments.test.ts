import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { appointments, paymentEvents, products } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { unusedBaseUrl } from '../../../test/fake-http-server.ts';
import { STRIPE_API_VERSION } from '../../providers/payments/stripe.ts';
import type { FakeStripe } from '../../../test/fake-stripe.ts';
import { signStripeWebhook, stripeEvent } from '../../../test/stripe-webhook-events.ts';
import {
  buildPaymentWorld,
  buildUnpaidAppointment,
  FORM_HEADERS,
  paymentForm,
  type PaymentWorld,
  readAppointment,
} from '../../../test/payment-world.ts';
import { startSmtpTestServer } from '../../../test/smtp-test-server.ts';
import { startStripeTestbed } from '../../../test/stripe-testbed.ts';

/** Friday 20 November 2026, 10:00 UTC. */
const NOW = '2026-11-20T10:00:00Z';
const NOW_DATE = new Date(NOW);
const NOW_SECONDS = NOW_DATE.getTime() / 1000;
const SECRET_KEY = 'sk_test_vetcall_0123456789';
const WEBHOOK_SECRET = 'whsec_test_vetcall_0123456789';

describe('payments with Stripe', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let stripe: FakeStripe;
  let t: TestApp;
  let w: PaymentWorld;
  let clock: ReturnType<typeof fixedClock>;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(async () => {
    clock = fixedClock(NOW);
    ({ stripe, t, w } = await startStripeTestbed(clock, {
      smtpUrl: smtp.url,
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
    }));
  });
  afterEach(async () => {
    await t.close();
    await stripe.close();
  });

  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(email));
  const postForm = (locale: string, body: string) =>
    t.app.inject({ method: 'POST', url: `/api/payment/${locale}`, headers: FORM_HEADERS, payload: body });
  const sessionCalls = () => stripe.calls.filter((call) => call.method === 'POST');

  /** Posts a webhook as Stripe does: the exact bytes, signed at `timestamp` (default: now) with `secret`. */
  const deliver = (
    event: object | string,
    options: { timestamp?: number; secret?: string; signature?: string | null; extraSecrets?: string[] } = {},
  ) => {
    // Stripe's bodies are pretty-printed: the signature must be checked on these bytes, not a re-serialization.
    const payload = typeof event === 'string' ? event : JSON.stringify(event, null, 2);
    const signature =
      options.signature === undefined
        ? signStripeWebhook(
            payload,
            options.secret ?? WEBHOOK_SECRET,
            options.timestamp ?? NOW_SECONDS,
            ...(options.extraSecrets ?? []),
          )
        : options.signature;
    return t.app.inject({
      method: 'POST',
      url: '/api/payment/webhook/stripe',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature === null ? {} : { 'stripe-signature': signature }),
      },
      payload,
    });
  };

  /** An unpaid appointment of Ana with its Stripe Checkout Session made through the payment form. */
  async function withCheckoutSession(options: Parameters<typeof buildUnpaidAppointment>[3] = {}) {
    const unpaid = await buildUnpaidAppointment(t, w, w.ana, options);
    const response = await postForm('en', paymentForm(w.ana, unpaid.paymentHash));
    expect(response.statusCode).toBe(303);
    const { appointment } = await readAppointment(t, unpaid.appointment.id);
    const session = stripe.sessions.get(appointment.providerReference!)!;
    return { ...unpaid, session };
  }

  const completed = (session: { id: string; client_reference_id: string | null }, overrides: object = {}) => ({
    id: session.id,
    client_reference_id: session.client_reference_id,
    metadata: { payment_hash: session.client_reference_id! },
    status: 'complete' as const,
    payment_status: 'paid' as const,
    amount_total: 2500,
    currency: 'eur',
    ...overrides,
  });

  describe('the Checkout Session', () => {
    it('names the product in the language of the page that posted the form', async () => {
      await t.db.insert(products).values({
        designation: { en: 'Video consultation', pt: 'Consulta por vídeo', 'pt-BR': 'Teleconsulta' },
        priceCents: 2500,
      });
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      expect((await postForm('pt-BR', paymentForm(w.ana, paymentHash))).statusCode).toBe(303);
      expect(sessionCalls()[0]!.form['line_items[0][price_data][product_data][name]']).toBe('Teleconsulta');
    });

    it('is created with exactly the fields Stripe needs, and the browser goes to it', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const response = await postForm('pt', paymentForm(w.ana, paymentHash));
      expect(response.statusCode).toBe(303);

      expect(sessionCalls()).toHaveLength(1);
      const call = sessionCalls()[0]!;
      expect(call.path).toBe('/v1/checkout/sessions');
      expect(call.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
      // Keyed by the random payment hash: unique across database resets and deployments.
      expect(call.headers['idempotency-key']).toBe(`checkout-session-${paymentHash}`);
      expect(call.headers['stripe-version']).toBe(STRIPE_API_VERSION);
      expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(call.form).toEqual({
        mode: 'payment',
        'line_items[0][price_data][currency]': 'eur',
        'line_items[0][price_data][unit_amount]': '2500',
        'line_items[0][price_data][product_data][name]': 'Video consultation',
        'line_items[0][quantity]': '1',
        customer_email: w.ana.user.email,
        client_reference_id: paymentHash,
        'metadata[payment_hash]': paymentHash,
        success_url: `http://vetcall.test/requestsent/${paymentHash}?lang=pt`,
        cancel_url: 'http://vetcall.test/customerdata?lang=pt&access=customer&payment_canceled=1',
        // The hold ends in 20 minutes, sooner than Stripe allows: 31 minutes, never the 24-hour default.
        expires_at: String(NOW_SECONDS + 31 * 60),
        locale: 'pt',
      });

      const { appointment: after } = await readAppointment(t, appointment.id);
      const session = stripe.sessions.get(after.providerReference!)!;
      expect(response.headers.location).toBe(session.url);
      expect(after.status).toBe('TK_PendingPayment');
      expect(mailsTo(w.ana.user.email)).toHaveLength(0);
    });

    it('expires with the hold when the hold lasts 30 minutes or more', async () => {
      const holdExpiresAt = new Date(NOW_DATE.getTime() + 45 * 60_000);
      await withCheckoutSession({ holdExpiresAt });
      expect(sessionCalls()[0]!.form.expires_at).toBe(String(holdExpiresAt.getTime() / 1000));
    });

    it('is reused while open: a second submit goes to the same session without creating another', async () => {
      const { paymentHash, session } = await withCheckoutSession();
      const again = await postForm('en', paymentForm(w.ana, paymentHash));
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe(session.url);
      expect(sessionCalls()).toHaveLength(1);
      expect(stripe.calls.at(-1)).toMatchObject({ method: 'GET', path: `/v1/checkout/sessions/${session.id}` });
    });

    it('once completed on Stripe, sends a second submit to Request Sent to wait for the webhook', async () => {
      const { paymentHash, session } = await withCheckoutSession();
      stripe.setSession(session.id, { status: 'complete', payment_status: 'paid' });
      const again = await postForm('en', paymentForm(w.ana, paymentHash));
      expect(again.headers.location).toBe(`/requestsent/${paymentHash}?lang=en`);
    });

    it('answers 502 payment_provider_unavailable when Stripe fails, refuses or cannot be reached', async () => {
      const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      // Every attempt fails (the SDK retries a 5xx once).
      for (const status of [500, 503, 429, 400]) {
        stripe.failUntilRecovered(status);
        const response = await postForm('en', paymentForm(w.ana, paymentHash));
        expect(response.statusCode).toBe(502);
        expect(response.json()).toMatchObject({ error: 'payment_provider_unavailable' });
      }
      stripe.recover();
      const { appointment: after } = await readAppointment(t, appointment.id);
      expect(after).toMatchObject({ status: 'TK_PendingPayment', providerReference: null });
    });

    it('answers 502 when Stripe is unreachable, and never for a free appointment', async () => {
      await t.close();
      t = await buildTestApp({
        clock,
        env: {
          PAYMENT_PROVIDER: 'stripe',
          STRIPE_API_URL: await unusedBaseUrl(),
          STRIPE_SECRET_KEY: SECRET_KEY,
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        },
      });
      w = await buildPaymentWorld(t);
      const priced = await buildUnpaidAppointment(t, w, w.ana);
      const response = await postForm('en', paymentForm(w.ana, priced.paymentHash));
      expect(response.statusCode).toBe(502);
      expect(response.json().error).toBe('payment_provider_unavailable');

      const free = await buildUnpaidAppointment(t, w, w.ana, {
        priceCents: 0,
        schedule: new Date('2026-12-02T10:00:00Z'),
      });
      const freeResponse = await postForm('en', paymentForm(w.ana, free.paymentHash, { appointment_included: '1' }));
      expect(freeResponse.statusCode).toBe(303);
      expect(freeResponse.headers.location).toMatch(/^\/requestconfirmed\/\?/);
    });

    it('has no built-in checkout API', async () => {
      const { paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
      const checkout = await t.app.inject({
        method: 'GET',
        url: `/api/payment/checkout/${paymentHash}`,
        headers: w.ana.headers,
      });
      expect(checkout.statusCode).toBe(404);
      const pay = await t.app.inject({
        method: 'POST',
        url: `/api/payment/checkout/${paymentHash}/pay`,
        headers: w.ana.headers,
        payload: { card_number: '4242424242424242', expiry: '12/30', cvc: '123', name: 'Ana' },
      });
      expect(pay.statusCode).toBe(404);
    });
  });

  describe('the webhook', () => {
    it('marks the appointment paid on checkout.session.completed; the emails go once', async () => {
      const { appointment, session } = await withCheckoutSession();
      const event = stripeEvent('checkout.session.completed', completed(session));
      const response = await deliver(event);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true });

      const { appointment: after, event: booking } = await readAppointment(t, appointment.id);
      expect(after).toMatchObject({
        status: 'TK_Requested',
        paymentProvider: 'stripe',
        providerReference: session.id,
        paidAt: NOW_DATE,
      });
      expect(booking).toMatchObject({ kind: 'booking', expiresAt: null, releasedAt: null });
      expect(mailsTo(w.ana.user.email)).toHaveLength(1);
      expect(mailsTo(w.rui.user.email)).toHaveLength(1);
      expect(mailsTo(w.rui.user.email)[0]!.text).toContain(
        `http://vetcall.test/confirmappointment/${appointment.hash}?lang=pt-BR`,
      );
      const [recorded] = await t.db.select().from(paymentEvents).where(eq(paymentEvents.id, event.id));
      expect(recorded).toMatchObject({ provider: 'stripe', type: 'checkout.session.completed' });

      // The customer's Request Sent page now sees it paid.
      const confirm = await t.app.inject({
        method: 'PUT',
        url: `/api/appointments/confirmpayment/${session.client_reference_id}/en`,
        headers: w.ana.headers,
      });
      expect(confirm.json()).toEqual({ success: true });
    });

    it('refuses a forged, missing, malformed or tampered signature (400 webhook_signature_invalid)', async () => {
      const { appointment, session } = await withCheckoutSession();
      const event = stripeEvent('checkout.session.completed', completed(session));
      const payload = JSON.stringify(event);
      const attempts = [
        await deliver(event, { secret: 'whsec_guessed' }),
        await deliver(event, { signature: null }),
        await deliver(event, { signature: 'garbage' }),
        await deliver(event, { signature: `t=${NOW_SECONDS}` }),
        await deliver(event, { signature: `t=${NOW_SECONDS},v0=${'0'.repeat(64)}` }),
        // Signed, then changed on the way: the amount paid is not what was signed.
        await deliver(payload.replace('"amount_total":2500', '"amount_total":1'), {
          signature: signStripeWebhook(payload, WEBHOOK_SECRET, NOW_SECONDS),
        }),
      ];
      for (const response of attempts) {
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toBe('webhook_signature_invalid');
      }
      expect((await readAppointment(t, appointment.id)).appointment.status).toBe('TK_PendingPayment');
      expect(await t.db.select().from(paymentEvents)).toHaveLength(0);
    });

    it('refuses a timestamp more than 300 seconds away from now', async () => {
      const { appointment, session } = await withCheckoutSession();
      const event = stripeEvent('checkout.session.completed', completed(session));
      for (const timestamp of [NOW_SECONDS - 301, NOW_SECONDS + 301]) {
        const response = await deliver(event, { timestamp });
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toBe('webhook_signature_invalid');
      }
      expect((await readAppointment(t, appointment.id)).appointment.status).toBe('TK_PendingPayment');
      expect((await deliver(event, { timestamp: NOW_SECONDS - 299 })).statusCode).toBe(200);
      expect((await readAppointment(t, appointment.id)).appointment.status).toBe('TK_Requested');
    });

    it('accepts any one matching v1 signature (a secret being rolled)', async () => {
      const { appointment, session } = await withCheckoutSession();
      const event = stripeEvent('checkout.session.completed', completed(session));
      const response = await deliver(event, { secret: 'whsec_old_secret', extraSecrets: [WEBHOOK_SECRET] });
      expect(response.statusCode).toBe(200);
      expect((await readAppointment(t, appointment.id)).appointment.status).toBe('TK_Requested');
    });

    it('handles a replayed event id once: 200 again, no second email', async () => {
      const { session } = await withCheckoutSession();
      const event = stripeEvent('checkout.session.completed', completed(session));
      expect((await deliver(event)).statusCode).toBe(200);
      clock.advance(60_000);
      const replay = await deliver(event, { timestamp: NOW_SECONDS + 60 });
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ received: true });
      // Another event about the same payment (async_payment_succeeded, say) changes nothing either.
      expect(
        (
          await deliver(stripeEvent('checkout.session.async_payment_succeeded', completed(session)), {
            timestamp: NOW_SECONDS + 60,
          })
        ).statusCode,
      ).toBe(200);
      expect(mailsTo(w.ana.user.email)).toHaveLength(1);
      expect(mailsTo(w.rui.user.email)).toHaveLength(1);
      expect(await t.db.select().from(paymentEvents)).toHaveLength(2);
    });

    it('does not let a late checkout.session.expired undo a payment (out of order: 200, still paid)', async () => {
      const { appointment, session } = await withCheckoutSession();
      expect((await deliver(stripeEvent('checkout.session.completed', completed(session)))).statusCode).toBe(200);
      const late = await deliver(stripeEvent('checkout.session.expired', completed(session, { status: 'expired' })));
      expect(late.statusCode).toBe(200);
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after.status).toBe('TK_Requested');
      expect(event).toMatchObject({ kind: 'booking', releasedAt: null });
    });

    it('ends an expired session’s appointment as payment failed and gives its slot back', async () => {
      const { appointment, session } = await withCheckoutSession();
      const response = await deliver(
        stripeEvent('checkout.session.expired', completed(session, { status: 'expired', payment_status: 'unpaid' })),
      );
      expect(response.statusCode).toBe(200);
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after.status).toBe('TK_PaymentFailed');
      expect(event.releasedAt).toEqual(NOW_DATE);
    });

    it('records a payment that arrives after the appointment failed, for a refund, and books nothing', async () => {
      const { appointment, session } = await withCheckoutSession();
      await deliver(
        stripeEvent('checkout.session.expired', completed(session, { status: 'expired', payment_status: 'unpaid' })),
      );
      const late = await deliver(stripeEvent('checkout.session.completed', completed(session)));
      expect(late.statusCode).toBe(200);
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after).toMatchObject({
        status: 'TK_PaymentFailed',
        paymentProvider: 'stripe',
        providerReference: session.id,
        paidAt: NOW_DATE,
        requestNotifiedAt: null,
      });
      expect(event.kind).toBe('hold');
      expect(event.releasedAt).not.toBeNull();
      expect(mailsTo(w.ana.user.email)).toHaveLength(0);
    });

    it('refuses a payment after the hold lapsed (recorded for a refund) even when no expiry came first', async () => {
      const { appointment, session } = await withCheckoutSession();
      clock.advance(25 * 60_000);
      const response = await deliver(stripeEvent('checkout.session.completed', completed(session)), {
        timestamp: NOW_SECONDS + 25 * 60,
      });
      expect(response.statusCode).toBe(200);
      const { appointment: after, event } = await readAppointment(t, appointment.id);
      expect(after).toMatchObject({ status: 'TK_PaymentFailed', paidAt: clock.now() });
      expect(event.releasedAt).toEqual(clock.now());
    });

    it('refuses an amount or a currency that is not the appointment’s price', async () => {
      const { appointment, session } = await withCheckoutSession();
      for (const overrides of [{ amount_total: 100 }, { currency: 'usd' }, { amount_total: null }]) {
        const response = await deliver(stripeEvent('checkout.session.completed', completed(session, overrides)));
        expect(response.statusCode).toBe(200);
      }
      const { appointment: after } = await readAppointment(t, appointment.id);
      expect(after).toMatchObject({ status: 'TK_PendingPayment', paidAt: null });
      expect(mailsTo(w.ana.user.email)).toHaveLength(0);
    });

    it('waits for async_payment_succeeded when the session completes unpaid; async_payment_failed fails it', async () => {
      const first = await withCheckoutSession();
      await deliver(stripeEvent('checkout.session.completed', completed(first.session, { payment_status: 'unpaid' })));
      expect((await readAppointment(t, first.appointment.id)).appointment.status).toBe('TK_PendingPayment');
      await deliver(stripeEvent('checkout.session.async_payment_succeeded', completed(first.session)));
      expect((await readAppointment(t, first.appointment.id)).appointment.status).toBe('TK_Requested');

      const second = await buildUnpaidAppointment(t, w, w.ana, { schedule: new Date('2026-12-02T10:00:00Z') });
      await postForm('en', paymentForm(w.ana, second.paymentHash));
      const { appointment } = await readAppointment(t, second.appointment.id);
      const session = stripe.sessions.get(appointment.providerReference!)!;
      await deliver(
        stripeEvent('checkout.session.async_payment_failed', completed(session, { payment_status: 'unpaid' })),
      );
      expect((await readAppointment(t, second.appointment.id)).appointment.status).toBe('TK_PaymentFailed');
    });

    it('ignores unknown event types, unknown payment hashes and the expiry of a session the appointment no longer uses', async () => {
      const { appointment, session } = await withCheckoutSession();
      const ignored = [
        stripeEvent('customer.created', { id: 'cus_123' }),
        stripeEvent(
          'checkout.session.completed',
          completed({ id: 'cs_other', client_reference_id: 'unknown-hash-0000' }),
        ),
        stripeEvent('checkout.session.expired', { ...completed(session), id: 'cs_test_an_older_session' }),
      ];
      for (const event of ignored) {
        const response = await deliver(event);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ received: true });
      }
      expect((await readAppointment(t, appointment.id)).appointment.status).toBe('TK_PendingPayment');
    });

    it('answers 400 for a signed body that is not a Stripe event', async () => {
      expect((await deliver('{"hello":')).json().error).toBe('invalid_json');
      expect((await deliver({ id: 'evt_1' })).statusCode).toBe(400);
    });

    it('finds the appointment by metadata.payment_hash when client_reference_id is missing', async () => {
      const { appointment, session } = await withCheckoutSession();
      await deliver(stripeEvent('checkout.session.completed', completed(session, { client_reference_id: null })));
      const [row] = await t.db.select().from(appointments).where(eq(appointments.id, appointment.id));
      expect(row!.status).toBe('TK_Requested');
    });
  });
});
