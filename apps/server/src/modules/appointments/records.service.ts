import { and, eq, inArray } from 'drizzle-orm';
import { EDITABLE_STATUSES, isAppointmentEditable } from '@vetcall/shared/appointment-rules';
import type { Locale } from '@vetcall/shared/locales';
import type { AppointmentDto, AppointmentUpdate } from '@vetcall/shared/schemas/appointment';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { appointments } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canEditDescription, canEditObservations, viewerOf } from './appointment.policy.ts';
import { findAppointmentDetail, toAppointmentDto } from './appointment-view.ts';

export const appointmentNotEditable = () =>
  new AppError('error_updating_appointment', 409, {
    message: 'This appointment can no longer be changed (only requested, confirmed or completed ones can).',
  });

/** The appointment row when the actor may see it; 404 for anyone else, so existence does not leak. */
export async function loadVisibleAppointment(db: Pick<Database, 'select'>, actor: Actor, appointmentId: number) {
  const [appointment] = await db.select().from(appointments).where(eq(appointments.id, appointmentId)).limit(1);
  const viewer = appointment ? viewerOf(actor, appointment) : undefined;
  if (!appointment || !viewer) throw notFound();
  return { appointment, viewer };
}

/**
 * The appointment row locked for the rest of the caller's transaction, when the actor may see it, and the
 * role they see it in; 404 for anyone else. A change of its life (cancel, move, complete) starts here, so
 * concurrent changes of one appointment run one after the other.
 */
export async function lockVisibleAppointment(tx: Pick<Database, 'select'>, actor: Actor, appointmentId: number) {
  const [appointment] = await tx.select().from(appointments).where(eq(appointments.id, appointmentId)).for('update');
  const viewer = appointment ? viewerOf(actor, appointment) : undefined;
  if (!appointment || !viewer) throw notFound();
  return { appointment, viewer };
}

/** GET /api/appointments/byid/{id}: shaped for the actor's role (appointment-view.ts). */
export async function getAppointment(
  deps: Pick<AppContext, 'db' | 'config' | 'secrets' | 'clock'>,
  actor: Actor,
  appointmentId: number,
  locale: Locale,
): Promise<AppointmentDto> {
  const row = await findAppointmentDetail(deps.db, appointmentId);
  const viewer = row ? viewerOf(actor, row.appointment) : undefined;
  if (!row || !viewer) throw notFound();
  return toAppointmentDto(row, viewer, {
    locale,
    now: deps.clock.now(),
    insuranceEnabled: deps.config.insuranceEnabled,
    secrets: deps.secrets,
  });
}

/**
 * PUT /api/appointments/{appointment_id} (docs/product-rules.md#states Appointment edit): the customer changes the
 * chief complaint, the vet the observations, nobody the other's field (403); managers change nothing (403).
 * Only while the appointment is editable (EDITABLE_STATUSES), else 409 error_updating_appointment; the
 * UPDATE re-checks the status, so a change of status in between is not overwritten.
 */
export async function updateAppointment(
  deps: Pick<AppContext, 'db'>,
  actor: Actor,
  appointmentId: number,
  input: AppointmentUpdate,
): Promise<{ user_id: number }> {
  const { appointment } = await loadVisibleAppointment(deps.db, actor, appointmentId);
  const changesDescription = input.description !== undefined;
  const changesObservations = input.vet_observations !== undefined;
  if (changesDescription && !canEditDescription(actor, appointment)) throw forbidden();
  if (changesObservations && !canEditObservations(actor, appointment)) throw forbidden();
  if (!isAppointmentEditable(appointment.status)) throw appointmentNotEditable();
  const updated = await deps.db
    .update(appointments)
    .set({
      ...(changesDescription ? { description: input.description } : {}),
      ...(changesObservations ? { vetObservations: input.vet_observations } : {}),
    })
    .where(and(eq(appointments.id, appointmentId), inArray(appointments.status, [...EDITABLE_STATUSES])))
    .returning({ id: appointments.id });
  if (updated.length === 0) throw appointmentNotEditable();
  return { user_id: actor.userId };
}
