import { desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppointmentStatus } from '@vetcall/shared/appointment-status';
import type { Locale } from '@vetcall/shared/locales';
import {
  type AppointmentDto,
  customerAppointmentSchema,
  managerAppointmentSchema,
  vetAppointmentSchema,
} from '@vetcall/shared/schemas/appointment';
import type { Database } from '../../db/client.ts';
import { appointments, calendarEvents, pets, users, vets } from '../../db/schema.ts';
import { translate } from '../../i18n.ts';
import type { Secrets } from '../../secrets.ts';
import type { AppointmentRow } from '../../db/appointment-transition.ts';
import { openPins } from './pins.ts';
import {
  type AppointmentViewer,
  cancellationTerms,
  completionTerms,
  rescheduleTerms,
} from '@vetcall/shared/appointment-rules';

const customerUsers = alias(users, 'customer_users');
const vetUsers = alias(users, 'vet_users');
const cancelerUsers = alias(users, 'canceler_users');

/** An appointment with the names an answer shows. */
export interface AppointmentDetailRow {
  appointment: AppointmentRow;
  customer: { name: string; email: string };
  vet: { name: string; email: string; vetId: number | null };
  pet: { name: string; policy: string | null };
  /** Who cancelled it (null: not cancelled, or by VetCall). */
  canceler: { name: string } | null;
  /** The availability profile its time was taken from. */
  profileId: number | null;
}

/** The appointment and its people by id; undefined when there is none. Authorization is the caller's. */
export async function findAppointmentDetail(
  db: Pick<Database, 'select'>,
  appointmentId: number,
): Promise<AppointmentDetailRow | undefined> {
  const [row] = await db
    .select({
      appointment: appointments,
      customer: { name: customerUsers.name, email: customerUsers.email },
      vet: { name: vetUsers.name, email: vetUsers.email, vetId: vets.id },
      pet: { name: pets.name, policy: pets.policy },
      canceler: { name: cancelerUsers.name },
    })
    .from(appointments)
    .innerJoin(customerUsers, eq(customerUsers.id, appointments.customerUserId))
    .innerJoin(vetUsers, eq(vetUsers.id, appointments.vetUserId))
    .innerJoin(pets, eq(pets.id, appointments.petId))
    .leftJoin(vets, eq(vets.userId, appointments.vetUserId))
    .leftJoin(cancelerUsers, eq(cancelerUsers.id, appointments.canceledByUserId))
    .where(eq(appointments.id, appointmentId))
    .limit(1);
  if (!row) return undefined;
  // The latest calendar entry of the appointment: its booking, or the hold it was made from.
  const [event] = await db
    .select({ profileId: calendarEvents.profileId })
    .from(calendarEvents)
    .where(eq(calendarEvents.appointmentId, appointmentId))
    .orderBy(desc(calendarEvents.id))
    .limit(1);
  return { ...row, profileId: event?.profileId ?? null };
}

/** The status as text in `locale` (catalog section appointment_status). */
export const statusText = (locale: Locale, status: AppointmentStatus) =>
  translate(locale, `appointment_status.${status}`);

/**
 * The PIN of one party of a confirmed appointment, opened from its sealed pair; null before confirmation
 * and after (a PIN opens the call only while the appointment is confirmed).
 */
export function ownPin(
  secrets: Pick<Secrets, 'open'>,
  appointment: Pick<AppointmentRow, 'status' | 'pinCipher'>,
  party: 'customer' | 'vet',
): string | null {
  if (appointment.status !== 'TK_Confirmed' || !appointment.pinCipher) return null;
  return openPins(secrets, appointment.pinCipher)[party];
}

export interface ViewOptions {
  locale: Locale;
  now: Date;
  insuranceEnabled: boolean;
  secrets: Pick<Secrets, 'open'>;
}

/**
 * GET /api/appointments/byid: the appointment as `viewer` may see it. Each role's answer is built field by
 * field and then checked against that role's strict schema, so a field another role may see (the vet's
 * observations, the other party's PIN) cannot slip in: an unknown key fails here, before any answer.
 */
export function toAppointmentDto(
  row: AppointmentDetailRow,
  viewer: AppointmentViewer,
  options: ViewOptions,
): AppointmentDto {
  const { appointment } = row;
  const common = {
    appointment_id: appointment.id,
    id: appointment.id,
    hash: appointment.hash,
    schedule: appointment.schedule.toISOString(),
    duration_minutes: appointment.durationMinutes,
    customer_user_id: appointment.customerUserId,
    customer_name: row.customer.name,
    customerEmail: row.customer.email,
    pet_id: appointment.petId,
    pet_name: row.pet.name,
    pet_policy: options.insuranceEnabled ? row.pet.policy : null,
    vet_user_id: appointment.vetUserId,
    vet_name: row.vet.name,
    vetEmail: row.vet.email,
    description: appointment.description,
    appointment_status_key: appointment.status,
    appointment_status: statusText(options.locale, appointment.status),
    status_date: appointment.statusDate.toISOString(),
    calendar_event_id: appointment.calendarEventId,
    timezone_diff: appointment.timezoneDiff,
    price: appointment.priceCents,
    lifecycle: {
      canceled_at: appointment.canceledAt?.toISOString() ?? null,
      canceled_by_name: row.canceler?.name ?? null,
      cancel_reason: appointment.cancelReason,
      refund_status: appointment.refundStatus,
      refunded_at: appointment.refundedAt?.toISOString() ?? null,
      completed_at: appointment.completedAt?.toISOString() ?? null,
      vet_id: row.vet.vetId,
      profile_id: row.profileId,
      can: {
        cancel: cancellationTerms(viewer, appointment, options.now),
        reschedule: rescheduleTerms(viewer, appointment, options.now),
        complete: completionTerms(viewer, appointment, options.now),
      },
    },
  };
  switch (viewer) {
    case 'customer':
      return customerAppointmentSchema.parse({
        ...common,
        viewer,
        customer_pin: ownPin(options.secrets, appointment, 'customer'),
      });
    case 'vet':
      return vetAppointmentSchema.parse({
        ...common,
        viewer,
        vet_observations: appointment.vetObservations,
        vet_pin: ownPin(options.secrets, appointment, 'vet'),
      });
    case 'manager':
      return managerAppointmentSchema.parse({ ...common, viewer, vet_observations: appointment.vetObservations });
  }
}
