import { and, eq, isNull } from 'drizzle-orm';
import { cancellationTerms } from '@vetcall/shared/appointment-rules';
import type { Locale } from '@vetcall/shared/locales';
import type { AppointmentDto, CancelAppointmentInput } from '@vetcall/shared/schemas/appointment';
import type { AppContext } from '../../context.ts';
import type { AuditActor } from '../../db/audit-log.ts';
import { type AppointmentRow, transitionAppointment } from '../../db/appointment-transition.ts';
import type { Database } from '../../db/client.ts';
import { calendarEvents } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { enqueueJobs } from '../../jobs/job-queue.ts';
import { queueMail } from '../../providers/mail/mail-outbox.ts';
import type { Actor } from '../auth/auth.service.ts';
import { isPaidStatus } from './appointment.policy.ts';
import { buildCancellationMail } from './cancellation-mail.ts';
import { REFUND_JOB } from './refunds.ts';
import { getAppointment, lockVisibleAppointment } from './records.service.ts';
import { loadRequestDetails } from './request-emails.ts';
import { queueCalendarEvent } from './calendar-event-job.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'secrets' | 'jobs'>;

const MINUTE_MS = 60_000;

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

const refused = (code: 'invalid_transition' | 'cancellation_closed') =>
  new AppError(code, 409, {
    message:
      code === 'invalid_transition'
        ? 'This appointment is completed, cancelled or failed; it cannot be cancelled.'
        : 'The time to cancel this appointment has passed.',
  });

/**
 * POST /api/appointments/{appointment_id}/cancel. Who may and with what refund is cancellationTerms
 * (@vetcall/shared/appointment-rules). In one transaction, with the appointment locked: the status becomes
 * TK_Canceled with who, when and why; its time is given back at once (its booking or hold released); the
 * refund is recorded (built-in checkout) or queued (Stripe's Refunds API, through the job worker); both
 * parties' mails, each with an .ics CANCEL of their invitation, are queued. 404 when the appointment is not
 * the actor's to see; 409 invalid_transition when it is final, cancellation_closed when it is too late.
 */
export async function cancelAppointment(
  deps: Deps,
  actor: Actor,
  appointmentId: number,
  input: CancelAppointmentInput,
  locale: Locale,
): Promise<AppointmentDto> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const { appointment: row, viewer } = await lockVisibleAppointment(tx, actor, appointmentId);
    const terms = cancellationTerms(viewer, row, now);
    if (!terms.allowed) throw refused(terms.reason);
    await applyCancellation(deps, tx, row, now, {
      byUserId: actor.userId,
      byName: actor.name,
      actor,
      reason: input.reason?.trim() || null,
      refund: terms.refund,
    });
  });
  deps.jobs.kick();
  return getAppointment(deps, actor, appointmentId, locale);
}

/**
 * The cancellation itself, in the caller's transaction with the row locked: TK_Canceled with who, when and
 * why; the time given back; the refund recorded (built-in checkout) or queued (Stripe); both parties' mails
 * with an .ics CANCEL queued, once the appointment had been paid (before that, the vet never heard of it).
 * `byUserId` null is VetCall itself (a request the vet never confirmed before its start).
 */
export async function applyCancellation(
  deps: Pick<Deps, 'config' | 'secrets'>,
  tx: Transaction,
  row: AppointmentRow,
  now: Date,
  by: {
    byUserId: number | null;
    byName: string;
    /** Who cancels, for the audit log; null is VetCall itself. */
    actor: AuditActor;
    reason: string | null;
    reasonKey?: string;
    refund: boolean;
  },
) {
  const wasPaid = isPaidStatus(row.status);
  const refundable = wasPaid && by.refund && row.priceCents > 0 && row.paymentProvider !== 'free';
  const byStripe = refundable && row.paymentProvider === 'stripe';
  const canceled = await transitionAppointment(tx, row.id, 'TK_Canceled', now, by.actor, {
    canceledAt: now,
    canceledByUserId: by.byUserId,
    cancelReason: by.reason,
    refundStatus: !refundable ? 'none' : byStripe ? 'pending' : 'refunded',
    refundedAt: refundable && !byStripe ? now : null,
  });
  if (!canceled) throw refused('invalid_transition');
  await tx
    .update(calendarEvents)
    .set({ releasedAt: now })
    .where(and(eq(calendarEvents.appointmentId, row.id), isNull(calendarEvents.releasedAt)));
  if (byStripe) await enqueueJobs(tx, now, [{ kind: REFUND_JOB, payload: { appointmentId: row.id } }]);
  // Out of the vet's own calendar (the job deletes the event only if one was written).
  await queueCalendarEvent(tx, now, canceled);

  if (!wasPaid) return;
  const details = await loadRequestDetails(tx, row.id);
  if (!details) return;
  const notice = {
    details,
    appointmentId: row.id,
    end: new Date(row.schedule.getTime() + row.durationMinutes * MINUTE_MS),
    sequence: canceled.calendarSequence,
    cancelledAt: now,
    byName: by.byName,
    reason: by.reason,
    reasonKey: by.reasonKey,
    refunded: refundable,
    publicUrl: deps.config.publicUrl,
    mailFrom: deps.config.mailFrom,
  };
  await queueMail(tx, { secrets: deps.secrets, now }, [
    buildCancellationMail(notice, 'customer'),
    buildCancellationMail(notice, 'vet'),
  ]);
}
