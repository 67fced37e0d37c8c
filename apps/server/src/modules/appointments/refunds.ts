import { eq } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { appointments } from '../../db/schema.ts';
import type { JobHandler } from '../../jobs/job-worker.ts';
import { type StripeClient, StripeRequestRefused } from '../../providers/payments/stripe.ts';

/** The job that gives a cancelled appointment's Stripe payment back. */
export const REFUND_JOB = 'stripe-refund';

/**
 * Refunds through Stripe's Refunds API: the Checkout Session names the payment (its payment intent), the
 * idempotency key is the payment hash's, so a retried job never refunds twice. Stripe unreachable or
 * refusing is a failed attempt, retried by the worker; once done the appointment records the refund. A
 * payment Stripe says is already refunded (in its dashboard, or by this job past Stripe's 24-hour idempotency
 * window) is recorded as refunded: the money is back, and asking again could never succeed.
 */
export function refundJobHandler(deps: { db: Database; clock: Clock; stripe: StripeClient }): JobHandler {
  return async (payload) => {
    const { appointmentId } = payload as { appointmentId: number };
    const [appointment] = await deps.db.select().from(appointments).where(eq(appointments.id, appointmentId));
    if (!appointment || appointment.refundStatus !== 'pending') return;
    if (!appointment.providerReference || !appointment.paymentHash) {
      throw new Error(`appointment ${appointmentId} has no Stripe payment to refund`);
    }
    const session = await deps.stripe.retrieveCheckoutSession(appointment.providerReference);
    if (!session?.payment_intent) throw new Error(`Checkout Session of appointment ${appointmentId} has no payment`);
    try {
      await deps.stripe.refundPayment(session.payment_intent, `refund-${appointment.paymentHash}`);
    } catch (error) {
      if (!(error instanceof StripeRequestRefused && error.stripeCode === 'charge_already_refunded')) throw error;
    }
    await markRefunded(deps.db, appointmentId, deps.clock.now());
  };
}

/**
 * What recording a refund replaced: a refund VetCall asked for ('pending'), or one it never asked for
 * ('unrequested': refund status 'none' or unset, as when a payment is refunded in Stripe's dashboard).
 */
export type RecordedRefund = 'pending' | 'unrequested';

/**
 * Records a refund as done (the job's answer, or Stripe's charge.refunded event), once: an appointment
 * already refunded is left as it was, since Stripe redelivers events and both paths may report one refund.
 * A refund VetCall never asked for is recorded only with `unrequested`: the job knows its refund was asked
 * for. Only the refund columns change, never the appointment's status. Answers what was replaced, or null
 * when nothing changed.
 */
export async function markRefunded(
  db: Pick<Database, 'transaction'>,
  appointmentId: number,
  now: Date,
  options: { unrequested?: boolean } = {},
): Promise<RecordedRefund | null> {
  return db.transaction(async (tx) => {
    // Locked, so the status read is the one replaced: a concurrent cancellation cannot slip in between.
    const [row] = await tx
      .select({ refundStatus: appointments.refundStatus })
      .from(appointments)
      .where(eq(appointments.id, appointmentId))
      .for('update');
    if (!row || row.refundStatus === 'refunded') return null;
    const replaced: RecordedRefund = row.refundStatus === 'pending' ? 'pending' : 'unrequested';
    if (replaced === 'unrequested' && !options.unrequested) return null;
    await tx
      .update(appointments)
      .set({ refundStatus: 'refunded', refundedAt: now })
      .where(eq(appointments.id, appointmentId));
    return replaced;
  });
}
