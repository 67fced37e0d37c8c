import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildAppointment, buildCustomer, buildPet, buildVet } from '../../demo-data/factories.ts';
import { appointments } from '../../db/schema.ts';
import { jobs } from '../../db/jobs-schema.ts';
import { createJobWorker } from '../../jobs/job-worker.ts';
import { enqueueJobs, retryDelayMs } from '../../jobs/job-queue.ts';
import { createStripeClient } from '../../providers/payments/stripe.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/database.ts';
import { type FakeStripe, startFakeStripe } from '../../../test/fake-stripe.ts';
import { markRefunded, REFUND_JOB, refundJobHandler } from './refunds.ts';

const NOW = '2026-11-18T12:00:00Z';

describe('Stripe refunds of cancelled appointments', () => {
  let database: TestDatabase;
  let stripe: FakeStripe;
  const clock = fixedClock(NOW);
  beforeEach(async () => {
    database = await createTestDatabase();
    stripe = await startFakeStripe({ secretKey: 'sk_test_refunds', clock });
  });
  afterEach(async () => {
    stripe.close();
    await database.release();
  });

  /** A cancelled appointment paid through a Checkout Session of the fake Stripe, its refund pending. */
  async function cancelledStripeAppointment() {
    const client = createStripeClient({ apiUrl: stripe.baseUrl, secretKey: 'sk_test_refunds' });
    const session = await client.createCheckoutSession(
      {
        amountCents: 2500,
        itemName: 'Video consultation',
        customerEmail: 'ana@example.test',
        paymentHash: 'pay-hash-0001',
        successUrl: 'https://vetcall.test/ok',
        cancelUrl: 'https://vetcall.test/cancel',
        locale: 'en',
      },
      'checkout-session-pay-hash-0001',
    );
    const paymentIntent = stripe.setSession(session.id, { status: 'complete', payment_status: 'paid' }).payment_intent;
    const vet = await buildVet(database.db);
    const customer = await buildCustomer(database.db);
    const pet = await buildPet(database.db, customer.customer.id);
    const appointment = await buildAppointment(
      database.db,
      { customerUserId: customer.user.id, petId: pet.id, vetUserId: vet.user.id },
      {
        status: 'TK_Canceled',
        priceCents: 2500,
        paymentProvider: 'stripe',
        providerReference: session.id,
        paymentHash: 'pay-hash-0001',
        refundStatus: 'pending',
      },
    );
    await enqueueJobs(database.db, clock.now(), [{ kind: REFUND_JOB, payload: { appointmentId: appointment.id } }]);
    const worker = createJobWorker({
      db: database.db,
      clock,
      handlers: { [REFUND_JOB]: refundJobHandler({ db: database.db, clock, stripe: client }) },
    });
    return { appointment, paymentIntent, worker };
  }

  const rowOf = async (id: number) =>
    (await database.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;

  it('refunds the payment of the session once, and records it', async () => {
    const { appointment, paymentIntent, worker } = await cancelledStripeAppointment();
    expect(await worker.drain()).toBe(1);
    expect([...stripe.refunds.values()]).toEqual([
      expect.objectContaining({ payment_intent: paymentIntent, amount: 2500, status: 'succeeded' }),
    ]);
    const refundCall = stripe.calls.find((call) => call.path === '/v1/refunds')!;
    expect(refundCall.headers['idempotency-key']).toBe('refund-pay-hash-0001');
    expect(await rowOf(appointment.id)).toMatchObject({ refundStatus: 'refunded', refundedAt: new Date(NOW) });
    expect(await worker.drain()).toBe(0);
    expect(stripe.refunds.size).toBe(1);
  });

  it('records the refund when Stripe says the payment is already refunded (in its dashboard)', async () => {
    const { appointment, paymentIntent, worker } = await cancelledStripeAppointment();
    stripe.refundInDashboard(paymentIntent!);
    expect(await worker.drain()).toBe(1);
    expect(stripe.calls.filter((call) => call.path === '/v1/refunds')).toHaveLength(1);
    expect(stripe.refunds.size).toBe(1);
    expect(await rowOf(appointment.id)).toMatchObject({ refundStatus: 'refunded', refundedAt: new Date(NOW) });
  });

  it('records a refund once, and one VetCall never asked for only when told so', async () => {
    const { appointment } = await cancelledStripeAppointment();
    expect(await markRefunded(database.db, appointment.id, clock.now())).toBe('pending');
    expect(await markRefunded(database.db, appointment.id, new Date('2026-11-19T00:00:00Z'))).toBeNull();
    expect(await rowOf(appointment.id)).toMatchObject({ refundStatus: 'refunded', refundedAt: new Date(NOW) });

    await database.db
      .update(appointments)
      .set({ refundStatus: 'none', refundedAt: null })
      .where(eq(appointments.id, appointment.id));
    expect(await markRefunded(database.db, appointment.id, clock.now())).toBeNull();
    expect((await rowOf(appointment.id)).refundStatus).toBe('none');
    expect(await markRefunded(database.db, appointment.id, clock.now(), { unrequested: true })).toBe('unrequested');
    expect(await rowOf(appointment.id)).toMatchObject({ status: 'TK_Canceled', refundStatus: 'refunded' });
  });

  it('keeps trying while Stripe is down, and refunds once it is back', async () => {
    const { appointment, worker } = await cancelledStripeAppointment();
    stripe.failUntilRecovered(503);
    await worker.drain();
    expect((await rowOf(appointment.id)).refundStatus).toBe('pending');
    expect((await database.db.select().from(jobs))[0]).toMatchObject({ status: 'pending', attempts: 1 });
    stripe.recover();
    clock.advance(retryDelayMs(1));
    await worker.drain();
    expect((await rowOf(appointment.id)).refundStatus).toBe('refunded');
    expect(stripe.refunds.size).toBe(1);
  });
});
