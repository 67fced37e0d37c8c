import { and, eq, inArray, sql } from 'drizzle-orm';
import { statusesLeadingTo, type AppointmentStatus } from '@vetcall/shared/appointment-status';
import { type AuditAction } from '@vetcall/shared/audit-actions';
import { type AuditActor, recordAudit } from './audit-log.ts';
import type { Database } from './client.ts';
import { appointments } from './schema.ts';

export type AppointmentRow = typeof appointments.$inferSelect;

/** Columns a transition may set along with the status (never the status, its date or the identity). */
export type TransitionColumns = Partial<
  Omit<typeof appointments.$inferInsert, 'id' | 'status' | 'statusDate' | 'hash' | 'createdAt' | 'calendarSequence'>
>;

/**
 * The only way the server changes an appointment's status (docs/appointment-lifecycle.md).
 *
 * One conditional UPDATE: `status = to, status_date = now`, the calendar SEQUENCE one more (and `extra`
 * columns) WHERE the id matches AND
 * the current status may lead to `to` (APPOINTMENT_TRANSITIONS). Answers the updated row, or null when
 * the appointment does not exist or its status does not allow the move (already there, final, or moved
 * on by someone else) — callers decide whether null is an error or an idempotent no-op.
 *
 * Pass a transaction as `db` to make the move part of a larger change; the row is locked until it ends.
 * A move that happens is written to the audit log (docs/audit-log.md) with `by`, who made it (null: VetCall
 * itself, a job or the payment provider), in the same statement sequence, so it commits with the move.
 *
 * @example await transitionAppointment(tx, appointment.id, 'TK_Requested', deps.clock.now(), null, { paidAt: now })
 */
export async function transitionAppointment(
  db: Pick<Database, 'update' | 'insert'>,
  appointmentId: number,
  to: AppointmentStatus,
  now: Date,
  by: AuditActor,
  extra: TransitionColumns = {},
): Promise<AppointmentRow | null> {
  const from = statusesLeadingTo(to);
  if (from.length === 0) return null;
  const [row] = await db
    .update(appointments)
    .set({ ...extra, status: to, statusDate: now, calendarSequence: sql`${appointments.calendarSequence} + 1` })
    .where(and(eq(appointments.id, appointmentId), inArray(appointments.status, from)))
    .returning();
  if (!row) return null;
  await recordAudit(db, {
    actor: by,
    action: TRANSITION_ACTIONS[to],
    subject: { type: 'appointment', id: appointmentId },
    details: { status: to },
    at: now,
  });
  return row;
}

/**
 * The audit action of a move to each status. Nothing moves to TK_PendingPayment (appointments start there, and
 * statusesLeadingTo answers none), so its entry is never written.
 */
const TRANSITION_ACTIONS: Record<AppointmentStatus, AuditAction> = {
  TK_PendingPayment: 'appointment.requested',
  TK_Requested: 'appointment.requested',
  TK_PaymentFailed: 'appointment.payment_failed',
  TK_Confirmed: 'appointment.confirmed',
  TK_Canceled: 'appointment.canceled',
  TK_Completed: 'appointment.completed',
};
