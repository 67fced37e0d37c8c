import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { rescheduleTerms } from '@vetcall/shared/appointment-rules';
import type { Locale } from '@vetcall/shared/locales';
import type { AppointmentDto, RescheduleAppointmentInput } from '@vetcall/shared/schemas/appointment';
import type { AppContext } from '../../context.ts';
import type { AppointmentRow } from '../../db/appointment-transition.ts';
import type { Database } from '../../db/client.ts';
import { appointments, calendarEvents } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { queueMail } from '../../providers/mail/mail-outbox.ts';
import type { Actor } from '../auth/auth.service.ts';
import { openPins } from './pins.ts';
import { getAppointment, lockVisibleAppointment } from './records.service.ts';
import { loadRequestDetails } from './request-emails.ts';
import { buildRescheduleMail } from './reschedule-mail.ts';
import { queueCalendarEvent } from './calendar-event-job.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'secrets' | 'jobs'>;
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

const MINUTE_MS = 60_000;
/** The statuses a move keeps: a paid appointment still ahead. */
const MOVABLE_STATUSES = ['TK_Requested', 'TK_Confirmed'] as const;

const refused = (code: 'invalid_transition' | 'reschedule_closed') =>
  new AppError(code, 409, {
    message:
      code === 'invalid_transition'
        ? 'Only a paid appointment that is still ahead (requested or confirmed) can be moved.'
        : 'The time to move this appointment has passed.',
  });
const holdProblem = (code: 'hold_not_found' | 'hold_expired') =>
  new AppError(code, 409, {
    message:
      code === 'hold_not_found'
        ? 'The new time was not found among your reserved times; pick a time again.'
        : 'The reserved new time has expired; pick a time again.',
    fields: { event_id: 'invalid_value' },
  });
const otherLength = () =>
  new AppError('validation_failed', 400, {
    message: 'The new time must be as long as the appointment.',
    fields: { event_id: 'invalid_value' },
  });

/**
 * The hold that names the new time, locked: made by the actor (customer, the vet or a manager: whoever
 * moves it holds the time first, as in booking), on the appointment's vet, unclaimed, live at `now` and as
 * long as the appointment.
 */
async function lockNewTime(tx: Transaction, actor: Actor, appointment: AppointmentRow, eventId: string, now: Date) {
  const [hold] = await tx
    .select()
    .from(calendarEvents)
    .where(eq(calendarEvents.eventId, eventId))
    .limit(1)
    .for('update');
  const ours =
    hold !== undefined &&
    hold.kind === 'hold' &&
    hold.customerUserId === actor.userId &&
    hold.vetUserId === appointment.vetUserId &&
    hold.appointmentId === null;
  if (!ours) throw holdProblem('hold_not_found');
  if (hold.releasedAt !== null || hold.expiresAt === null || hold.expiresAt <= now) throw holdProblem('hold_expired');
  if (hold.endsAt.getTime() - hold.startsAt.getTime() !== appointment.durationMinutes * MINUTE_MS) throw otherLength();
  return hold;
}

/**
 * POST /api/appointments/{appointment_id}/reschedule. Who may and until when is rescheduleTerms
 * (@vetcall/shared/appointment-rules). In one transaction, the appointment locked: the old time is given back
 * and the hold on the new one becomes the appointment's booking (the exclusion constraint keeps guarding the
 * vet's calendar), the start moves, the calendar SEQUENCE grows by one and the reminders are due again for
 * the new time. The price, the status and the PINs stay: a confirmed appointment stays confirmed, and both
 * parties get the invitation again; a requested one goes back to the vet, who is asked to confirm the new
 * time. 404 when the appointment is not the actor's to see; 409 invalid_transition, reschedule_closed,
 * hold_not_found or hold_expired; 400 when the new time is not as long as the appointment.
 */
export async function rescheduleAppointment(
  deps: Deps,
  actor: Actor,
  appointmentId: number,
  input: RescheduleAppointmentInput,
  locale: Locale,
): Promise<AppointmentDto> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const { appointment: row, viewer } = await lockVisibleAppointment(tx, actor, appointmentId);
    const terms = rescheduleTerms(viewer, row, now);
    if (!terms.allowed) throw refused(terms.reason);
    const hold = await lockNewTime(tx, actor, row, input.event_id.trim(), now);

    await tx
      .update(calendarEvents)
      .set({ releasedAt: now })
      .where(and(eq(calendarEvents.appointmentId, row.id), isNull(calendarEvents.releasedAt)));
    await tx
      .update(calendarEvents)
      .set({ kind: 'booking', expiresAt: null, appointmentId: row.id })
      .where(eq(calendarEvents.id, hold.id));
    const [moved] = await tx
      .update(appointments)
      .set({
        schedule: hold.startsAt,
        calendarEventId: hold.eventId,
        calendarSequence: sql`${appointments.calendarSequence} + 1`,
        reminded24hAt: null,
        reminded1hAt: null,
      })
      .where(and(eq(appointments.id, row.id), inArray(appointments.status, [...MOVABLE_STATUSES])))
      .returning();
    // The row is locked and its status was checked: the update cannot miss.
    if (!moved) throw new Error(`appointment ${row.id} could not be moved`);
    await queueRescheduleMails(deps, tx, { moved, previousStart: row.schedule, byName: actor.name, now });
    await queueCalendarEvent(tx, now, moved);
  });
  deps.jobs.kick();
  return getAppointment(deps, actor, appointmentId, locale);
}

async function queueRescheduleMails(
  deps: Pick<Deps, 'config' | 'secrets'>,
  tx: Transaction,
  change: { moved: AppointmentRow; previousStart: Date; byName: string; now: Date },
) {
  const { moved } = change;
  const details = await loadRequestDetails(tx, moved.id);
  if (!details) return;
  const notice = {
    details,
    previousStart: change.previousStart,
    appointmentId: moved.id,
    end: new Date(moved.schedule.getTime() + moved.durationMinutes * MINUTE_MS),
    sequence: moved.calendarSequence,
    movedAt: change.now,
    byName: change.byName,
    pins: moved.status === 'TK_Confirmed' && moved.pinCipher ? openPins(deps.secrets, moved.pinCipher) : null,
    publicUrl: deps.config.publicUrl,
    mailFrom: deps.config.mailFrom,
  };
  await queueMail(tx, { secrets: deps.secrets, now: change.now }, [
    buildRescheduleMail(notice, 'customer'),
    buildRescheduleMail(notice, 'vet'),
  ]);
}
