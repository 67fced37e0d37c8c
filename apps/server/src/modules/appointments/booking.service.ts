import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import {
  appointmentDataSchema,
  type AppointmentCreated,
  PAYMENT_WINDOW_MINUTES,
} from '@vetcall/shared/schemas/booking';
import { fieldErrorsFromIssues } from '@vetcall/shared/schemas/fields';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { appointments, calendarEvents, customers, pets } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { StoredFile } from '../../providers/storage/file-store.ts';
import { insertFileRows, recordFileEvents } from './file-rows.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canBookAppointment, isBookingForSelf } from './appointment.policy.ts';
import { type BookingPrice, priceBooking, withinAccessCodeBudget } from './pricing.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'limiter'>;
export type ParsedAppointmentData = z.output<typeof appointmentDataSchema>;

const MINUTE_MS = 60_000;

export const holdNotFound = (message = 'The reserved slot was not found; pick a time again.') =>
  new AppError('hold_not_found', 409, { message, fields: { calendar_event_id: 'invalid_value' } });
export const holdExpired = () =>
  new AppError('hold_expired', 409, {
    message: 'The reserved slot has expired; pick a time again.',
    fields: { calendar_event_id: 'invalid_value' },
  });
const alreadyBooked = () => holdNotFound('This reserved slot has already been booked.');
const appointmentDataRequired = () =>
  new AppError('validation_failed', 400, {
    message: 'The appointment_data part is missing.',
    fields: { appointment_data: 'required' },
  });

/**
 * The `appointment_data` part (JSON text) checked against appointmentDataSchema; failures are 400
 * validation_failed with per-field codes, like a JSON body's.
 */
export function parseAppointmentData(text: string | undefined): ParsedAppointmentData {
  if (text === undefined) throw appointmentDataRequired();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('validation_failed', 400, {
      message: 'appointment_data is not valid JSON.',
      fields: { appointment_data: 'invalid_format' },
    });
  }
  const parsed = appointmentDataSchema.safeParse(json);
  if (!parsed.success) {
    throw new AppError('validation_failed', 400, {
      message: 'Invalid appointment_data.',
      fields: fieldErrorsFromIssues(parsed.error.issues),
    });
  }
  return parsed.data;
}

/** Everything a valid request books, found by planBooking. */
interface BookingPlan {
  petId: number;
  vetUserId: number;
  hold: { id: number; startsAt: Date; durationMinutes: number };
  price: BookingPrice;
}

/** The customer's own pet, not archived: 404 when unknown or archived, 403 when someone else's. */
async function findOwnPet(db: Pick<Database, 'select'>, actor: Actor, petId: number) {
  const [pet] = await db
    .select({ id: pets.id, ownerUserId: customers.userId, archivedAt: pets.archivedAt })
    .from(pets)
    .innerJoin(customers, eq(customers.id, pets.customerId))
    .where(eq(pets.id, petId))
    .limit(1);
  if (!pet) throw notFound();
  if (pet.ownerUserId !== actor.userId) throw forbidden();
  if (pet.archivedAt !== null) throw notFound();
  return pet;
}

/**
 * The hold the request names: the actor's, for that vet, starting at `schedule`, not claimed by an
 * appointment yet (else 409 hold_not_found), and live (else 409 hold_expired).
 */
async function findLiveHold(db: Pick<Database, 'select'>, actor: Actor, data: ParsedAppointmentData, now: Date) {
  const [event] = await db
    .select()
    .from(calendarEvents)
    .where(eq(calendarEvents.eventId, data.calendar_event_id))
    .limit(1);
  const matches =
    event !== undefined &&
    event.kind === 'hold' &&
    event.customerUserId === actor.userId &&
    event.vetUserId === data.vet_user_id &&
    event.startsAt.getTime() === new Date(data.schedule).getTime();
  if (!matches) throw holdNotFound();
  if (event.appointmentId !== null) throw alreadyBooked();
  if (event.releasedAt !== null || event.expiresAt === null || event.expiresAt <= now) throw holdExpired();
  return event;
}

/** Every rule of a booking request, read-only: who, pet, vet, hold, price (and access code). */
async function planBooking(
  db: Pick<Database, 'select'>,
  deps: Pick<Deps, 'config'>,
  actor: Actor,
  data: ParsedAppointmentData,
  now: Date,
): Promise<BookingPlan> {
  if (!isBookingForSelf(actor, data.customer_user_id)) throw forbidden();
  const pet = await findOwnPet(db, actor, data.pet_id);
  const hold = await findLiveHold(db, actor, data, now);
  const price = await priceBooking(db, {
    vetUserId: data.vet_user_id,
    accessCode: data.access_code,
    locale: actor.locale,
    now,
    accessCodesEnabled: deps.config.accessCodesEnabled,
    codeRequired: true,
  });
  return {
    petId: pet.id,
    vetUserId: data.vet_user_id,
    hold: {
      id: hold.id,
      startsAt: hold.startsAt,
      durationMinutes: Math.round((hold.endsAt.getTime() - hold.startsAt.getTime()) / MINUTE_MS),
    },
    price,
  };
}

/**
 * The early check of POST /api/appointments, run as soon as appointment_data arrives so that a request
 * bound to fail is refused before its files are read. A wrong access code counts against the code
 * guessing budget. createAppointment checks everything again in its transaction.
 */
export async function checkBookingRequest(deps: Deps, actor: Actor, data: ParsedAppointmentData, ip: string) {
  if (!canBookAppointment(actor)) throw forbidden();
  const plan = () => planBooking(deps.db, deps, actor, data, deps.clock.now());
  if (deps.config.accessCodesEnabled && data.access_code?.trim()) await withinAccessCodeBudget(deps, actor, ip, plan);
  else await plan();
}

/**
 * POST /api/appointments: turns the customer's live hold into an appointment awaiting payment, in one
 * transaction: the appointment (status TK_PendingPayment, price computed here, random hash and
 * payment_hash), the hold claimed for it (linked, and kept for PAYMENT_WINDOW_MINUTES more so payment
 * has time; the release job fails the appointment if it lapses) and the rows of the already stored
 * files. The hold is claimed with a conditional UPDATE, so one hold makes one appointment however many
 * requests race (the others get 409 hold_not_found). If anything fails the files' bytes are deleted.
 */
export async function createAppointment(
  deps: Deps,
  actor: Actor,
  data: ParsedAppointmentData,
  files: readonly StoredFile[],
): Promise<AppointmentCreated> {
  if (!canBookAppointment(actor)) throw forbidden();
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const plan = await planBooking(tx, deps, actor, data, now);
    const [appointment] = await tx
      .insert(appointments)
      .values({
        hash: randomBytes(16).toString('base64url'),
        paymentHash: randomBytes(16).toString('base64url'),
        customerUserId: actor.userId,
        petId: plan.petId,
        vetUserId: plan.vetUserId,
        description: data.description,
        vetObservations: '',
        schedule: plan.hold.startsAt,
        durationMinutes: plan.hold.durationMinutes,
        status: 'TK_PendingPayment',
        statusDate: now,
        priceCents: plan.price.priceCents,
        itemName: plan.price.itemName,
        calendarEventId: data.calendar_event_id,
        timezoneDiff: data.timezone_diff,
        accessCodeId: plan.price.accessCodeId,
        createdAt: now,
      })
      .returning();
    const claimed = await tx
      .update(calendarEvents)
      .set({
        appointmentId: appointment!.id,
        expiresAt: new Date(now.getTime() + PAYMENT_WINDOW_MINUTES * MINUTE_MS),
      })
      .where(
        and(
          eq(calendarEvents.id, plan.hold.id),
          eq(calendarEvents.kind, 'hold'),
          isNull(calendarEvents.releasedAt),
          isNull(calendarEvents.appointmentId),
          gt(calendarEvents.expiresAt, now),
        ),
      )
      .returning({ id: calendarEvents.id });
    // Another request claimed it between our read and this write.
    if (claimed.length === 0) throw alreadyBooked();
    const fileRows = await insertFileRows(tx, appointment!.id, files, { uploadedByUserId: actor.userId, now });
    await recordFileEvents(tx, actor, 'file.uploaded', fileRows, now);
    return {
      appointment_hash: appointment!.hash,
      payment_hash: appointment!.paymentHash!,
      price_cents: appointment!.priceCents,
      item_name: appointment!.itemName,
      included: plan.price.included,
    };
  });
}
