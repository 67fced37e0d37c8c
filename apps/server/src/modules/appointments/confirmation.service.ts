import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppointmentInfo, ConfirmAppointmentInput } from '@vetcall/shared/schemas/booking';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { appointments, calendarEvents, pets, users } from '../../db/schema.ts';
import { isExclusionViolation, isUniqueViolation } from '../../db/sql-state.ts';
import { AppError, notFound } from '../../errors.ts';
import { assertAllowed, type RateRule } from '../../plugins/rate-limiter.ts';
import type { AuditActor } from '../../db/audit-log.ts';
import { transitionAppointment, type AppointmentRow } from '../../db/appointment-transition.ts';
import { slotTaken } from '../scheduling/holds.service.ts';
import { canConfirmAppointment } from './appointment.policy.ts';
import { type AppointmentPins, issuePins, openPins } from './pins.ts';
import { browserWallTimeToInstant, formatAppointmentTime } from '../../lib/appointment-time.ts';
import { loadRequestDetails } from './request-emails.ts';
import { buildConfirmationMail, joinUrl } from './confirmation-mail.ts';
import { queueMail } from '../../providers/mail/mail-outbox.ts';
import { appointmentEventUid } from '../ics-feed/ics-calendar.ts';
import { queueCalendarEvent } from './calendar-event-job.ts';
import { vetTimeZone } from '../availability/availability-profiles.ts';
import type { RequestOrigin } from '../../lib/request-origin.ts';

const alreadyConfirmed = () =>
  new AppError('already_confirmed', 409, {
    message: 'This appointment is already confirmed at another time; it cannot be moved from here.',
  });

const MINUTE_MS = 60_000;
/** A vet with no availability profile: the default zone, GMT (docs/product-rules.md#limits). */
const DEFAULT_VET_TIME_ZONE = 'UTC';
/** Unique violations of the PIN indexes are retried this many times (the advisory lock makes them unlikely). */
const MAX_CONFIRM_ATTEMPTS = 3;

/**
 * Both routes take no login, so failed lookups are counted: per IP for the info page (a hash is 128 random
 * bits: only guessing fails), and per IP and per hash for confirmation, where the vet's email is the
 * secret being tried. A successful request counts nothing: a vet may reload and confirm twice.
 */
export const CONFIRMATION_RATE_LIMITS = {
  infoFailuresPerIp: { limit: 20, windowMs: 15 * MINUTE_MS },
  confirmFailuresPerIp: { limit: 10, windowMs: 15 * MINUTE_MS },
  confirmFailuresPerHash: { limit: 10, windowMs: 15 * MINUTE_MS },
} as const satisfies Record<string, RateRule>;

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'limiter' | 'secrets' | 'jobs'>;
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * The one answer for an unknown hash and a wrong email alike (docs/product-rules.md#confirmation-page 'Cant activate
 * this appointment!').
 */
const cantActivate = () => new AppError('cant_activate_appointment', 400);
const notConfirmable = () =>
  new AppError('appointment_not_confirmable', 409, {
    message: 'Only a paid appointment waiting for its vet can be confirmed.',
  });
const scheduleError = (code: 'invalid_value' | 'too_small', message: string) =>
  new AppError('validation_failed', 400, { message, fields: { schedule: code } });

/** GET /api/appointments/info/{hash}: what the confirmation page shows, nothing private. Unknown: 404. */
export async function getAppointmentInfo(
  deps: Pick<AppContext, 'db' | 'limiter'>,
  hash: string,
  ip: string,
): Promise<AppointmentInfo> {
  const ipKey = `appointment-info:ip:${ip}`;
  assertAllowed(await deps.limiter.check(ipKey, CONFIRMATION_RATE_LIMITS.infoFailuresPerIp));
  const [row] = await deps.db
    .select({
      hash: appointments.hash,
      schedule: appointments.schedule,
      durationMinutes: appointments.durationMinutes,
      status: appointments.status,
      vetUserId: appointments.vetUserId,
      vetName: users.name,
      petName: pets.name,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.vetUserId))
    .innerJoin(pets, eq(pets.id, appointments.petId))
    .where(eq(appointments.hash, hash))
    .limit(1);
  if (!row) {
    await deps.limiter.hit(ipKey, CONFIRMATION_RATE_LIMITS.infoFailuresPerIp);
    throw notFound();
  }
  return {
    hash: row.hash,
    schedule: row.schedule.toISOString(),
    duration_minutes: row.durationMinutes,
    status: row.status,
    vet_name: row.vetName,
    pet_name: row.petName,
    vet_timezone: (await vetTimeZone(deps.db, row.vetUserId)) ?? DEFAULT_VET_TIME_ZONE,
  };
}

/**
 * POST /api/appointments/confirm/{hash} (docs/product-rules.md#confirmation-page, #api): the owning vet confirms a
 * requested appointment, at the booked time or another one (`schedule` is the vet browser's wall time, `timezone_diff`
 * its offset). In one transaction: the booking moves if the time changed (the exclusion constraint refuses an
 * overlap: 409 slot_taken and nothing changes), the appointment becomes TK_Confirmed and gets its two PINs.
 * Each party's mail with their own PIN is queued in the same transaction and sent by the job worker (a mail
 * server that is away delays it, never loses it). Confirming a confirmed appointment again answers the
 * same vet PIN and changes and sends nothing.
 */
export async function confirmAppointment(
  deps: Deps,
  pathHash: string,
  input: ConfirmAppointmentInput,
  request: { origin: RequestOrigin; log: Pick<FastifyBaseLogger, 'error'> },
): Promise<{ appointment_pin: string }> {
  if (input.hash !== pathHash) {
    throw new AppError('validation_failed', 400, {
      message: 'The hash of the body is not the one of the path.',
      fields: { hash: 'invalid_value' },
    });
  }
  const ipKey = `appointment-confirm:ip:${request.origin.ip}`;
  const hashKey = `appointment-confirm:hash:${pathHash}`;
  assertAllowed(
    await deps.limiter.check(ipKey, CONFIRMATION_RATE_LIMITS.confirmFailuresPerIp),
    await deps.limiter.check(hashKey, CONFIRMATION_RATE_LIMITS.confirmFailuresPerHash),
  );

  const [target] = await deps.db
    .select({ id: appointments.id, vetUserId: users.id, vetEmail: users.email, vetActive: users.active })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.vetUserId))
    .where(eq(appointments.hash, pathHash))
    .limit(1);
  if (!target || !canConfirmAppointment(input.email, { email: target.vetEmail, active: target.vetActive })) {
    await deps.limiter.hit(ipKey, CONFIRMATION_RATE_LIMITS.confirmFailuresPerIp);
    await deps.limiter.hit(hashKey, CONFIRMATION_RATE_LIMITS.confirmFailuresPerHash);
    throw cantActivate();
  }

  // The vet confirms from the link in their mail, not logged in: the email they gave is theirs (checked above).
  const by = { userId: target.vetUserId, type: 'vet' as const, email: target.vetEmail, origin: request.origin };
  const outcome = await confirmWithRetries(deps, target.id, input, by, request.log);
  if (outcome.kind === 'confirmed') deps.jobs.kick();
  return { appointment_pin: outcome.pins.vet };
}

type ConfirmOutcome =
  | { kind: 'already'; pins: AppointmentPins }
  | { kind: 'confirmed'; pins: AppointmentPins; appointment: AppointmentRow };

async function confirmWithRetries(
  deps: Deps,
  appointmentId: number,
  input: ConfirmAppointmentInput,
  by: AuditActor,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<ConfirmOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.db.transaction((tx) => confirmInTransaction(deps, tx, appointmentId, input, by, log));
    } catch (error) {
      if (isExclusionViolation(error)) throw slotTaken();
      // Another appointment took one of the PINs between check and write: pick again.
      if (isUniqueViolation(error) && attempt < MAX_CONFIRM_ATTEMPTS) continue;
      throw error;
    }
  }
}

async function confirmInTransaction(
  deps: Deps,
  tx: Transaction,
  appointmentId: number,
  input: ConfirmAppointmentInput,
  by: AuditActor,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<ConfirmOutcome> {
  // Locked first: a concurrent confirmation of the same appointment waits here, then sees it confirmed.
  const [row] = await tx.select().from(appointments).where(eq(appointments.id, appointmentId)).for('update');
  if (!row) throw cantActivate();
  const start = browserWallTimeToInstant(input.schedule, input.timezone_diff);
  if (row.status === 'TK_Confirmed') {
    if (!row.pinCipher) throw new Error(`confirmed appointment ${row.id} has no PINs`);
    // The same confirmation again (a second click, a reload) answers the same PIN; another time is a move,
    // which a confirmation never makes once confirmed.
    if (start?.getTime() !== row.schedule.getTime()) throw alreadyConfirmed();
    return { kind: 'already', pins: openPins(deps.secrets, row.pinCipher) };
  }
  if (row.status !== 'TK_Requested') throw notConfirmable();

  const now = deps.clock.now();
  if (!start) throw scheduleError('invalid_value', 'The date does not exist.');
  if (start.getTime() < now.getTime()) throw scheduleError('too_small', 'The appointment cannot start in the past.');
  const end = new Date(start.getTime() + row.durationMinutes * MINUTE_MS);

  await placeBooking(tx, row, start, end, now);
  const issued = await issuePins(tx, deps.secrets);
  const confirmed = await transitionAppointment(tx, row.id, 'TK_Confirmed', now, by, {
    confirmedAt: now,
    schedule: start,
    customerPinHash: issued.customerPinHash,
    vetPinHash: issued.vetPinHash,
    pinCipher: issued.pinCipher,
  });
  if (!confirmed) throw notConfirmable();
  await queueConfirmationMails(deps, tx, confirmed, issued.pins, log);
  // Into the vet's own calendar, if linked (the job worker writes it, with retries).
  await queueCalendarEvent(tx, now, confirmed);
  return { kind: 'confirmed', pins: issued.pins, appointment: confirmed };
}

/**
 * Makes the appointment's booking occupy [start, end): moved when the vet chose another time (made, for an
 * appointment that has none). Expired holds in the way are released first, as a new hold does; any other
 * live entry there makes the exclusion constraint refuse the write.
 */
async function placeBooking(tx: Transaction, appointment: AppointmentRow, start: Date, end: Date, now: Date) {
  const [booking] = await tx
    .select({ id: calendarEvents.id, startsAt: calendarEvents.startsAt, endsAt: calendarEvents.endsAt })
    .from(calendarEvents)
    .where(
      and(
        eq(calendarEvents.appointmentId, appointment.id),
        eq(calendarEvents.kind, 'booking'),
        isNull(calendarEvents.releasedAt),
      ),
    )
    .limit(1)
    .for('update');
  if (booking && booking.startsAt.getTime() === start.getTime() && booking.endsAt.getTime() === end.getTime()) return;

  await tx
    .update(calendarEvents)
    .set({ releasedAt: now })
    .where(
      and(
        eq(calendarEvents.vetUserId, appointment.vetUserId),
        eq(calendarEvents.kind, 'hold'),
        isNull(calendarEvents.releasedAt),
        lte(calendarEvents.expiresAt, now),
        lt(calendarEvents.startsAt, end),
        gt(calendarEvents.endsAt, start),
      ),
    );
  if (booking) {
    await tx.update(calendarEvents).set({ startsAt: start, endsAt: end }).where(eq(calendarEvents.id, booking.id));
  } else {
    await tx.insert(calendarEvents).values({
      eventId: randomBytes(16).toString('base64url'),
      vetUserId: appointment.vetUserId,
      customerUserId: appointment.customerUserId,
      kind: 'booking',
      startsAt: start,
      endsAt: end,
      appointmentId: appointment.id,
      createdAt: now,
    });
  }
}

/**
 * Queues the two 'appointment confirmed' mails in the confirming transaction. A mail that cannot be built
 * (a zone Intl refuses) is logged and left out rather than undoing the confirmation: the vet has the PIN on
 * screen, and the PINs stay sealed in the row.
 */
async function queueConfirmationMails(
  deps: Deps,
  tx: Transaction,
  appointment: AppointmentRow,
  pins: AppointmentPins,
  log: Pick<FastifyBaseLogger, 'error'>,
) {
  // The same people, zones and names as every other mail of the appointment (request-emails.ts).
  const details = await loadRequestDetails(tx, appointment.id);
  if (!details) return;
  const { customer, vet, pet } = details;

  const start = appointment.schedule;
  const calendar = {
    uid: appointmentEventUid(appointment.id, deps.config.publicUrl),
    start,
    end: new Date(start.getTime() + appointment.durationMinutes * MINUTE_MS),
    dtstamp: appointment.statusDate,
    sequence: appointment.calendarSequence,
    mailFrom: deps.config.mailFrom,
  };
  const shared = { vetName: vet.name, customerName: customer.name, petName: pet.name, calendar };

  const mails = [
    () =>
      buildConfirmationMail({
        ...shared,
        party: 'customer',
        to: customer.email,
        locale: customer.locale,
        name: customer.name,
        when: formatAppointmentTime(start, customer.locale, details.customerZone),
        pin: pins.customer,
        joinUrl: joinUrl(deps.config.publicUrl, pins.customer, customer.locale),
      }),
    () =>
      buildConfirmationMail({
        ...shared,
        party: 'vet',
        to: vet.email,
        locale: vet.locale,
        name: vet.name,
        when: formatAppointmentTime(start, vet.locale, { timeZone: vet.timezone }),
        pin: pins.vet,
        joinUrl: joinUrl(deps.config.publicUrl, pins.vet, vet.locale),
      }),
  ];
  const built = mails.flatMap((build) => {
    try {
      return [build()];
    } catch (error) {
      log.error({ err: error, appointmentId: appointment.id }, 'appointment confirmation mail not built');
      return [];
    }
  });
  await queueMail(tx, { secrets: deps.secrets, now: deps.clock.now() }, built);
}
