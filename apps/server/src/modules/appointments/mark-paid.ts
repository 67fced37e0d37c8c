import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appointments, calendarEvents } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { type AppointmentRow, transitionAppointment } from '../../db/appointment-transition.ts';
import { isPaidStatus } from './appointment.policy.ts';
import { type NotifyDeps, queueRequestReceived } from './request-emails.ts';

export type PaymentProviderName = 'builtin' | 'stripe' | 'free';

export const paymentClosed = () => new AppError('payment_closed', 409);
export const invalidPaymentHash = () => new AppError('invalid_payment_hash', 404);

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * The calendar entry holding an unpaid appointment's slot while it is still good: a hold linked to the
 * appointment, not released and not expired at `now`.
 */
export async function findLiveHold(db: Pick<Database, 'select'>, appointmentId: number, now: Date) {
  const [hold] = await db
    .select({ id: calendarEvents.id, expiresAt: calendarEvents.expiresAt })
    .from(calendarEvents)
    .where(
      and(
        eq(calendarEvents.appointmentId, appointmentId),
        eq(calendarEvents.kind, 'hold'),
        isNull(calendarEvents.releasedAt),
        gt(calendarEvents.expiresAt, now),
      ),
    )
    .limit(1);
  return hold ?? null;
}

/** Gives an unpaid appointment's held time back (every hold linked to it). */
async function releaseHolds(tx: Pick<Database, 'update'>, appointmentId: number, now: Date) {
  await tx
    .update(calendarEvents)
    .set({ releasedAt: now })
    .where(
      and(
        eq(calendarEvents.appointmentId, appointmentId),
        eq(calendarEvents.kind, 'hold'),
        isNull(calendarEvents.releasedAt),
      ),
    );
}

/**
 * Locks an appointment and the holds linked to it until the transaction ends, holds first: the order the
 * hold release job takes them in (calendar entry, then its appointment), so the two never deadlock.
 * Answers the appointment and its live hold at `now` (null when it lapsed or was released).
 */
async function lockForPayment(tx: Transaction, appointmentId: number, now: Date) {
  const holds = await tx
    .select({ id: calendarEvents.id, expiresAt: calendarEvents.expiresAt, releasedAt: calendarEvents.releasedAt })
    .from(calendarEvents)
    .where(and(eq(calendarEvents.appointmentId, appointmentId), eq(calendarEvents.kind, 'hold')))
    .orderBy(calendarEvents.id)
    .for('update');
  const [appointment] = await tx.select().from(appointments).where(eq(appointments.id, appointmentId)).for('update');
  const liveHold = holds.find((hold) => hold.releasedAt === null && hold.expiresAt !== null && hold.expiresAt > now);
  return { appointment: appointment ?? null, liveHold: liveHold ?? null };
}

/**
 * Ends an appointment that was never paid: TK_PaymentFailed (its payment lapsed or failed) or TK_Canceled
 * (the customer left the checkout), and its hold released, in one transaction. Only a TK_PendingPayment
 * appointment moves; any other answers null and nothing changes (a late 'expired' event after the payment
 * does not undo it).
 */
export async function endUnpaidAppointment(
  deps: { db: Database; clock: { now(): Date } },
  appointmentId: number,
  to: 'TK_PaymentFailed' | 'TK_Canceled',
): Promise<AppointmentRow | null> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { appointment } = await lockForPayment(tx, appointmentId, now);
    if (!appointment || appointment.status !== 'TK_PendingPayment') return null;
    const ended = await transitionAppointment(tx, appointmentId, to, now, null);
    if (ended) await releaseHolds(tx, appointmentId, now);
    return ended;
  });
}

export interface PaymentReceived {
  provider: PaymentProviderName;
  /** The provider's reference (a Stripe Checkout Session id); kept as it was when absent. */
  reference?: string;
  amountCents: number;
}

/**
 * Marks an appointment paid, in one transaction: TK_PendingPayment → TK_Requested (through the state
 * machine) with paid_at and the provider, and its hold turned into the booking (kind 'booking', no
 * expiry), and the request emails queued once (request-emails.ts), all in one transaction.
 *
 * Already paid: nothing changes and `newlyPaid` is false (a replayed event, a double submit).
 * Not payable — its hold lapsed or was released, or the appointment failed or was canceled: 409
 * payment_closed; a lapsed hold also ends the appointment as TK_PaymentFailed. Money Stripe took for such
 * an appointment is recorded on it (paid_at, provider, reference while the status stays unpaid) and logged
 * as an error: it must be refunded.
 */
export async function markAppointmentPaid(
  deps: NotifyDeps,
  appointmentId: number,
  payment: PaymentReceived,
): Promise<{ appointment: AppointmentRow; newlyPaid: boolean }> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const { appointment, liveHold } = await lockForPayment(tx, appointmentId, now);
    if (!appointment) throw invalidPaymentHash();
    if (isPaidStatus(appointment.status)) return { kind: 'already_paid' as const, appointment };
    if (appointment.priceCents !== payment.amountCents) {
      throw new Error(`payment of ${payment.amountCents} cents for an appointment priced ${appointment.priceCents}`);
    }
    const hold = appointment.status === 'TK_PendingPayment' ? liveHold : null;
    if (!hold) {
      const failed = (await transitionAppointment(tx, appointmentId, 'TK_PaymentFailed', now, null)) ?? appointment;
      await releaseHolds(tx, appointmentId, now);
      if (payment.provider === 'stripe') {
        // Not a change of status: the record that money arrived for an appointment that can't take it.
        await tx
          .update(appointments)
          .set({
            paidAt: now,
            paymentProvider: payment.provider,
            providerReference: payment.reference ?? appointment.providerReference,
          })
          .where(eq(appointments.id, appointmentId));
      }
      return { kind: 'closed' as const, appointment: failed };
    }
    await tx.update(calendarEvents).set({ kind: 'booking', expiresAt: null }).where(eq(calendarEvents.id, hold.id));
    const paid = await transitionAppointment(tx, appointmentId, 'TK_Requested', now, null, {
      paidAt: now,
      paymentProvider: payment.provider,
      providerReference: payment.reference ?? appointment.providerReference,
    });
    // The row is locked and was TK_PendingPayment: the move cannot be refused.
    if (!paid) throw new Error(`appointment ${appointmentId} could not move to TK_Requested`);
    // The request mails commit with the payment they report.
    await queueRequestReceived(tx, deps, appointmentId, now);
    return { kind: 'paid' as const, appointment: paid };
  });

  if (outcome.kind === 'closed') {
    if (payment.provider === 'stripe') {
      deps.log.error(
        { appointmentId, provider: payment.provider, reference: payment.reference, amountCents: payment.amountCents },
        'REFUND NEEDED: a payment arrived for an appointment that can no longer be paid (its hold lapsed or it ended)',
      );
    }
    throw paymentClosed();
  }
  if (outcome.kind === 'already_paid') return { appointment: outcome.appointment, newlyPaid: false };
  deps.jobs.kick();
  return { appointment: outcome.appointment, newlyPaid: true };
}
