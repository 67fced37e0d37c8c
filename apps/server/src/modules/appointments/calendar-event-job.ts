import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appointments, calendarRemoteEvents, vetCalendarLinks } from '../../db/schema.ts';
import { enqueueJobs } from '../../jobs/job-queue.ts';
import type { JobHandler } from '../../jobs/job-worker.ts';
import { translate } from '../../i18n.ts';
import { joinUrl } from './confirmation-mail.ts';
import { openPins } from './pins.ts';
import { loadRequestDetails } from './request-emails.ts';
import { appointmentEventUid } from '../ics-feed/ics-calendar.ts';
import {
  findCalendarLink,
  sameCalendar,
  type SyncDeps,
  syncProviderFor,
} from '../calendar-sync/calendar-sync.service.ts';

/** Puts, moves or deletes an appointment's event in its vet's own calendar (payload: { appointmentId }). */
export const CALENDAR_EVENT_JOB = 'calendar-event';

const MINUTE_MS = 60_000;

/**
 * Queues the calendar job of an appointment in the caller's transaction, if its vet has a calendar linked:
 * it exists exactly when the confirmation, move or cancellation it follows committed.
 */
export async function queueCalendarEvent(
  tx: Pick<Database, 'select' | 'insert'>,
  now: Date,
  appointment: { id: number; vetUserId: number },
): Promise<void> {
  const [link] = await tx
    .select({ target: vetCalendarLinks.targetCalendar })
    .from(vetCalendarLinks)
    .where(eq(vetCalendarLinks.vetUserId, appointment.vetUserId))
    .limit(1);
  if (!link?.target) return;
  await enqueueJobs(tx, now, [{ kind: CALENDAR_EVENT_JOB, payload: { appointmentId: appointment.id } }]);
}

/**
 * Makes the vet's calendar match the appointment as it is now (so retries and reordered jobs converge):
 * a confirmed appointment has its event in the target calendar, at its time; any other state has none.
 * A completed one is left as it is. With no calendar linked nothing is written (unlinking stops writes).
 */
export async function syncAppointmentEvent(deps: SyncDeps, appointmentId: number): Promise<void> {
  const [row] = await deps.db.select().from(appointments).where(eq(appointments.id, appointmentId)).limit(1);
  if (!row || row.status === 'TK_Completed') return;
  const link = await findCalendarLink(deps.db, row.vetUserId);
  if (!link) return;
  const [written] = await deps.db
    .select()
    .from(calendarRemoteEvents)
    .where(eq(calendarRemoteEvents.appointmentId, appointmentId))
    .limit(1);
  const provider = await syncProviderFor(deps, link);

  if (row.status !== 'TK_Confirmed' || !link.targetCalendar) {
    if (!written) return;
    await provider.deleteEvent(written.calendar, { href: written.href, etag: written.etag });
    await deps.db.delete(calendarRemoteEvents).where(eq(calendarRemoteEvents.appointmentId, appointmentId));
    return;
  }

  const details = await loadRequestDetails(deps.db, appointmentId);
  if (!details) return;
  const locale = details.vet.locale;
  const names = { pet: details.pet.name, customer: details.customer.name };
  const joinLink = row.pinCipher
    ? joinUrl(deps.config.publicUrl, openPins(deps.secrets, row.pinCipher).vet, locale)
    : deps.config.publicUrl;
  const event = {
    uid: appointmentEventUid(row.id, deps.config.publicUrl),
    start: row.schedule,
    end: new Date(row.schedule.getTime() + row.durationMinutes * MINUTE_MS),
    summary: translate(locale, 'calendar_event.summary', names),
    description: translate(locale, 'calendar_event.description', { ...names, link: joinLink }),
    url: joinLink,
    sequence: row.calendarSequence,
    stamp: deps.clock.now(),
  };
  // The vet chose another target calendar of the same account since it was written: it leaves the old one (a
  // retry finds it gone). An event in a calendar the account does not list is another account's: left, as
  // unlinking leaves events, since this account's credentials cannot reach it.
  if (
    written &&
    written.calendar !== link.targetCalendar &&
    link.calendars.some((calendar) => sameCalendar(calendar.url, written.calendar))
  ) {
    await provider.deleteEvent(written.calendar, { href: written.href, etag: written.etag });
  }
  const existing =
    written && written.calendar === link.targetCalendar ? { href: written.href, etag: written.etag } : null;
  const ref = await provider.putEvent(link.targetCalendar, event, existing);
  const values = {
    vetUserId: row.vetUserId,
    calendar: link.targetCalendar,
    href: ref.href,
    etag: ref.etag,
    syncedAt: deps.clock.now(),
  };
  await deps.db
    .insert(calendarRemoteEvents)
    .values({ appointmentId, ...values })
    .onConflictDoUpdate({ target: calendarRemoteEvents.appointmentId, set: values });
}

export function calendarEventJobHandler(deps: SyncDeps): JobHandler {
  return async (payload) => {
    const { appointmentId } = payload as { appointmentId: number };
    await syncAppointmentEvent(deps, appointmentId);
  };
}
