import { and, eq, isNull, lte, gt, inArray } from 'drizzle-orm';
import { ROOM_CLOSES_AFTER_START_MS } from '@vetcall/shared/schemas/video';
import type { AppContext } from '../../context.ts';
import { transitionAppointment } from '../../db/appointment-transition.ts';
import { appointments } from '../../db/schema.ts';
import type { JobHandler, RecurringTask } from '../../jobs/job-worker.ts';
import { formatAppointmentTime } from '../../lib/appointment-time.ts';
import { translate } from '../../i18n.ts';
import { queueMail } from '../../providers/mail/mail-outbox.ts';
import type { MailMessage } from '../../providers/mail/mailer.ts';
import { renderEmail } from '../../providers/mail/templates.ts';
import { applyCancellation } from './cancellation.service.ts';
import { joinUrl } from './confirmation-mail.ts';
import { openPins } from './pins.ts';
import { loadRequestDetails, type RequestDetails } from './request-emails.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'secrets'>;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** How often the appointment jobs run; every instance queues them, one runs each period. */
export const LIFECYCLE_EVERY_MS = MINUTE_MS;
export const COMPLETION_JOB = 'appointments-complete';
export const REMINDER_JOB = 'appointments-remind';
export const LIFECYCLE_TASKS: readonly RecurringTask[] = [
  { kind: COMPLETION_JOB, everyMs: LIFECYCLE_EVERY_MS },
  { kind: REMINDER_JOB, everyMs: LIFECYCLE_EVERY_MS },
];

/** The two reminders: how long before the start each goes, and the column recording it. */
export const REMINDERS = [
  { name: '24h', beforeMs: 24 * HOUR_MS, column: 'reminded24hAt' },
  { name: '1h', beforeMs: HOUR_MS, column: 'reminded1hAt' },
] as const;

/**
 * The end of an appointment's life, run once a minute across instances: a confirmed appointment whose room
 * has closed (one hour after the start) becomes TK_Completed; a request the vet never confirmed before its
 * start is cancelled by VetCall, refunded, and both parties are told. Each appointment is moved in its own
 * transaction, so one failure does not hold the others back.
 */
export async function completeAppointments(deps: Deps): Promise<{ completed: number; expired: number }> {
  const now = deps.clock.now();
  const roomClosed = new Date(now.getTime() - ROOM_CLOSES_AFTER_START_MS);
  const done = await deps.db
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.status, 'TK_Confirmed'), lte(appointments.schedule, roomClosed)));
  let completed = 0;
  for (const { id } of done) {
    const moved = await deps.db.transaction((tx) =>
      transitionAppointment(tx, id, 'TK_Completed', now, null, { completedAt: now }),
    );
    if (moved) completed += 1;
  }

  const stale = await deps.db
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.status, 'TK_Requested'), lte(appointments.schedule, now)));
  let expired = 0;
  for (const { id } of stale) {
    await deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(appointments).where(eq(appointments.id, id)).for('update');
      if (row?.status !== 'TK_Requested') return;
      await applyCancellation(deps, tx, row, now, {
        byUserId: null,
        byName: 'VetCall',
        actor: null,
        reason: null,
        // Told to each party in their own language.
        reasonKey: 'never_confirmed',
        refund: true,
      });
      expired += 1;
    });
  }
  return { completed, expired };
}

/** A reminder of one party: their language, zone, PIN and join link. */
function buildReminderMail(
  details: RequestDetails,
  party: 'customer' | 'vet',
  reminder: (typeof REMINDERS)[number],
  pin: string,
  publicUrl: string,
): MailMessage {
  const reader = details[party];
  const locale = reader.locale;
  const zone = party === 'customer' ? details.customerZone : { timeZone: details.vet.timezone };
  const when = formatAppointmentTime(details.schedule, locale, zone);
  const names = { pet: details.pet.name, vet: details.vet.name, customer: details.customer.name, when };
  const link = joinUrl(publicUrl, pin, locale);
  const rendered = renderEmail(locale, {
    subject: translate(locale, `mail_reminder.subject_${reminder.name}`, names),
    name: reader.name,
    paragraphs: [
      translate(locale, `mail_reminder.${party}_body`, names),
      translate(locale, 'mail_confirmation.pin', { pin }),
      translate(locale, 'mail_confirmation.join_window'),
    ],
    action: { label: translate(locale, 'mail_confirmation.action'), url: link },
  });
  return { to: reader.email, ...rendered };
}

/**
 * Reminders to both parties 24 hours and 1 hour before a confirmed appointment. An appointment is claimed
 * for a reminder (its column set) and the two mails queued in one transaction, so each goes exactly once
 * whatever the number of instances or restarts. A reminder whose moment passed before the appointment was
 * confirmed is not sent (the confirmation mail has just told them).
 */
export async function sendReminders(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  let sent = 0;
  for (const reminder of REMINDERS) {
    const column = appointments[reminder.column];
    const due = await deps.db
      .select({ id: appointments.id })
      .from(appointments)
      .where(
        and(
          eq(appointments.status, 'TK_Confirmed'),
          isNull(column),
          gt(appointments.schedule, now),
          lte(appointments.schedule, new Date(now.getTime() + reminder.beforeMs)),
        ),
      );
    for (const { id } of due) {
      await deps.db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(appointments)
          .set({ [reminder.column]: now })
          .where(and(eq(appointments.id, id), isNull(column), inArray(appointments.status, ['TK_Confirmed'])))
          .returning();
        if (!claimed?.pinCipher) return;
        const confirmedAt = claimed.confirmedAt ?? claimed.statusDate;
        if (confirmedAt.getTime() > claimed.schedule.getTime() - reminder.beforeMs) return;
        const details = await loadRequestDetails(tx, id);
        if (!details) return;
        const pins = openPins(deps.secrets, claimed.pinCipher);
        const key = `reminder-${reminder.name}:${id}:${claimed.schedule.toISOString()}`;
        await queueMail(tx, { secrets: deps.secrets, now }, [
          {
            ...buildReminderMail(details, 'customer', reminder, pins.customer, deps.config.publicUrl),
            dedupeKey: `${key}:customer`,
          },
          {
            ...buildReminderMail(details, 'vet', reminder, pins.vet, deps.config.publicUrl),
            dedupeKey: `${key}:vet`,
          },
        ]);
        sent += 1;
      });
    }
  }
  return sent;
}

/** The job handlers of the recurring appointment work. */
export function lifecycleJobHandlers(deps: Deps): Record<string, JobHandler> {
  return {
    [COMPLETION_JOB]: async () => void (await completeAppointments(deps)),
    [REMINDER_JOB]: async () => void (await sendReminders(deps)),
  };
}
