import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { appointments, paymentEvents } from '../../db/schema.ts';
import { jobs } from '../../db/jobs-schema.ts';
import { enqueueJobs, retryDelayMs } from '../../jobs/job-queue.ts';
import { createStripeClient } from '../../providers/payments/stripe.ts';
import type { TestApp } from '../../../test/build-test-app.ts';
import type { FakeStripe } from '../../../test/fake-stripe.ts';
import {
  buildUnpaidAppointment,
  FORM_HEADERS,
  paymentForm,
  type PaymentWorld,
  readAppointment,
} from '../../../test/payment-world.ts';
import { startSmtpTestServer } from '../../../test/smtp-test-server.ts';
import { startStripeTestbed } from '../../../test/stripe-testbed.ts';
import { chargeRefundedEvent, signStripeWebhook, stripeEvent } from '../../../test/stripe-webhook-events.ts';
import { REFUND_JOB } from '../appointments/refunds.ts';

/** Friday 20 November 2026, 10:00 UTC. */
const NOW = '2026-11-20T10:00:00Z';
const NOW_DATE = new Date(NOW);
const SECRET_KEY = 'sk_test_vetcall_refunds_0123';
const WEBHOOK_SECRET = 'whsec_test_vetcall_refunds_0123';

describe('Stripe’s charge.refunded event', () => {
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

  /** Posts an event as Stripe does: pretty-printed, signed with the official SDK's test helper, at the clock's now. */
  const deliver = (event: object, secret = WEBHOOK_SECRET) => {
    const payload = JSON.stringify(event, null, 2);
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    return t.app.inject({
      method: 'POST',
      url: '/api/payment/webhook/stripe',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signStripeWebhook(payload, secret, timestamp),
      },
      payload,
    });
  };
  const deliverOk = async (event: object) => {
    const response = await deliver(event);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ received: true });
  };
  const rowOf = async (id: number) => (await readAppointment(t, id)).appointment;
  const refundsOf = (row: { status: string; refundStatus: string | null; refundedAt: Date | null }) => ({
    status: row.status,
    refundStatus: row.refundStatus,
    refundedAt: row.refundedAt,
  });

  /** Ana's appointment paid through Stripe Checkout (form, session, checkout.session.completed). */
  async function paidAppointment() {
    const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/payment/en',
      headers: FORM_HEADERS,
      payload: paymentForm(w.ana, paymentHash),
    });
    expect(form.statusCode).toBe(303);
    const { providerReference } = await rowOf(appointment.id);
    const session = stripe.setSession(providerReference!, { status: 'complete', payment_status: 'paid' });
    await deliverOk(stripeEvent('checkout.session.completed', session));
    return { id: appointment.id, paymentHash, paymentIntent: session.payment_intent! };
  }

  /** What a cancellation with a refund leaves while its refund job has not got Stripe's answer. */
  async function cancelWithRefundPending(id: number) {
    await t.db
      .update(appointments)
      .set({ status: 'TK_Canceled', canceledAt: clock.now(), refundStatus: 'pending' })
      .where(eq(appointments.id, id));
  }

  it('records a pending refund whose job lost Stripe’s answer; the job then refunds nothing more', async () => {
    const paid = await paidAppointment();
    await cancelWithRefundPending(paid.id);
    await enqueueJobs(t.db, clock.now(), [{ kind: REFUND_JOB, payload: { appointmentId: paid.id } }]);
    // The job's call reached Stripe, which refunded, but its answer was lost: the same call, made here.
    const client = createStripeClient({ apiUrl: stripe.baseUrl, secretKey: SECRET_KEY });
    await client.refundPayment(paid.paymentIntent, `refund-${paid.paymentHash}`);

    clock.advance(60_000);
    await deliverOk(chargeRefundedEvent(stripe.charge(paid.paymentIntent)));
    expect(refundsOf(await rowOf(paid.id))).toEqual({
      status: 'TK_Canceled',
      refundStatus: 'refunded',
      refundedAt: clock.now(),
    });
    // Found through Stripe's list of Checkout Sessions by payment, as the real API answers it.
    expect(stripe.calls.filter((call) => call.method === 'GET' && call.path === '/v1/checkout/sessions')).toEqual([
      expect.objectContaining({ query: { payment_intent: paid.paymentIntent } }),
    ]);

    // The job (run after each request) finds the refund recorded and asks Stripe for nothing.
    await t.context.jobs.drain();
    expect(stripe.calls.filter((call) => call.path === '/v1/refunds')).toHaveLength(1);
    expect(stripe.refunds.size).toBe(1);
    expect(await t.db.select().from(jobs).where(eq(jobs.kind, REFUND_JOB))).toEqual([
      expect.objectContaining({ status: 'done' }),
    ]);
  });

  it('records a refund made in the dashboard for an appointment cancelled without one; its status stays', async () => {
    const paid = await paidAppointment();
    await t.db
      .update(appointments)
      .set({ status: 'TK_Canceled', canceledAt: clock.now(), refundStatus: 'none' })
      .where(eq(appointments.id, paid.id));
    await deliverOk(chargeRefundedEvent(stripe.refundInDashboard(paid.paymentIntent)));
    expect(refundsOf(await rowOf(paid.id))).toEqual({
      status: 'TK_Canceled',
      refundStatus: 'refunded',
      refundedAt: NOW_DATE,
    });
  });

  it('records the dashboard refund of money that came after the hold lapsed (no refund status yet)', async () => {
    const { appointment, paymentHash } = await buildUnpaidAppointment(t, w, w.ana);
    await t.app.inject({
      method: 'POST',
      url: '/api/payment/en',
      headers: FORM_HEADERS,
      payload: paymentForm(w.ana, paymentHash),
    });
    const { providerReference } = await rowOf(appointment.id);
    const session = stripe.setSession(providerReference!, { status: 'complete', payment_status: 'paid' });
    clock.advance(25 * 60_000);
    // Logged as REFUND NEEDED by the webhook; someone refunds it in the dashboard.
    await deliverOk(stripeEvent('checkout.session.completed', session));
    expect(await rowOf(appointment.id)).toMatchObject({ status: 'TK_PaymentFailed', refundStatus: null });

    clock.advance(60_000);
    await deliverOk(chargeRefundedEvent(stripe.refundInDashboard(session.payment_intent!)));
    expect(refundsOf(await rowOf(appointment.id))).toEqual({
      status: 'TK_PaymentFailed',
      refundStatus: 'refunded',
      refundedAt: clock.now(),
    });
  });

  it('changes nothing on a replay or a redelivery under a new id', async () => {
    const paid = await paidAppointment();
    await cancelWithRefundPending(paid.id);
    const charge = stripe.refundInDashboard(paid.paymentIntent);
    const event = chargeRefundedEvent(charge);
    await deliverOk(event);
    const recorded = refundsOf(await rowOf(paid.id));
    expect(recorded).toEqual({ status: 'TK_Canceled', refundStatus: 'refunded', refundedAt: NOW_DATE });

    clock.advance(60_000);
    await deliverOk(event);
    await deliverOk(chargeRefundedEvent(charge));
    expect(refundsOf(await rowOf(paid.id))).toEqual(recorded);
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.type, 'charge.refunded'))).toHaveLength(2);
  });

  it('changes nothing once the refund job recorded the refund', async () => {
    const paid = await paidAppointment();
    await cancelWithRefundPending(paid.id);
    await enqueueJobs(t.db, clock.now(), [{ kind: REFUND_JOB, payload: { appointmentId: paid.id } }]);
    await t.context.jobs.drain();
    const recorded = refundsOf(await rowOf(paid.id));
    expect(recorded).toEqual({ status: 'TK_Canceled', refundStatus: 'refunded', refundedAt: NOW_DATE });

    clock.advance(60_000);
    await deliverOk(chargeRefundedEvent(stripe.charge(paid.paymentIntent)));
    expect(refundsOf(await rowOf(paid.id))).toEqual(recorded);
    expect(stripe.refunds.size).toBe(1);
  });

  it('records nothing for a partial refund, and the refund once the rest is given back', async () => {
    const paid = await paidAppointment();
    const partial = stripe.refundInDashboard(paid.paymentIntent, 1000);
    expect(partial).toMatchObject({ refunded: false, amount_refunded: 1000, amount: 2500 });
    await deliverOk(chargeRefundedEvent(partial));
    expect(refundsOf(await rowOf(paid.id))).toEqual({ status: 'TK_Requested', refundStatus: null, refundedAt: null });

    clock.advance(60_000);
    await deliverOk(chargeRefundedEvent(stripe.refundInDashboard(paid.paymentIntent)));
    expect(refundsOf(await rowOf(paid.id))).toEqual({
      status: 'TK_Requested',
      refundStatus: 'refunded',
      refundedAt: clock.now(),
    });
  });

  it('answers 200 and changes nothing for a payment of no known appointment', async () => {
    const paid = await paidAppointment();
    // A session of the same Stripe account that VetCall did not make: no appointment refers to it.
    const client = createStripeClient({ apiUrl: stripe.baseUrl, secretKey: SECRET_KEY });
    const { id } = await client.createCheckoutSession(
      {
        amountCents: 4000,
        itemName: 'Something else',
        customerEmail: 'someone@example.test',
        paymentHash: 'not-vetcall-hash-0001',
        successUrl: 'https://elsewhere.test/ok',
        cancelUrl: 'https://elsewhere.test/cancel',
        locale: 'en',
      },
      'elsewhere-session-1',
    );
    const elsewhere = stripe.setSession(id, { status: 'complete', payment_status: 'paid' }).payment_intent!;
    const outsider = stripe.refundInDashboard(elsewhere);
    for (const charge of [
      outsider,
      // A payment Stripe has no Checkout Session for (an invoice, say).
      { ...outsider, id: 'ch_test_invoice', payment_intent: 'pi_test_invoice' },
      // A charge made without a PaymentIntent (the old Charges API).
      { ...outsider, id: 'ch_test_legacy', payment_intent: null },
    ]) {
      await deliverOk(chargeRefundedEvent(charge));
    }
    expect(refundsOf(await rowOf(paid.id))).toEqual({ status: 'TK_Requested', refundStatus: null, refundedAt: null });
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.type, 'charge.refunded'))).toHaveLength(3);
  });

  it('verifies the signature as for every event: a forged one records nothing', async () => {
    const paid = await paidAppointment();
    await cancelWithRefundPending(paid.id);
    const event = chargeRefundedEvent(stripe.refundInDashboard(paid.paymentIntent));
    const forged = await deliver(event, 'whsec_guessed');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe('webhook_signature_invalid');
    expect((await rowOf(paid.id)).refundStatus).toBe('pending');
  });

  it('answers 500 while Stripe cannot say whose payment it is, and records the refund when Stripe retries', async () => {
    const paid = await paidAppointment();
    await cancelWithRefundPending(paid.id);
    const event = chargeRefundedEvent(stripe.refundInDashboard(paid.paymentIntent));
    stripe.failUntilRecovered(503);
    expect((await deliver(event)).statusCode).toBe(500);
    expect((await rowOf(paid.id)).refundStatus).toBe('pending');

    stripe.recover();
    clock.advance(retryDelayMs(1));
    await deliverOk(event);
    expect(await rowOf(paid.id)).toMatchObject({ refundStatus: 'refunded', refundedAt: clock.now() });
  });
});
