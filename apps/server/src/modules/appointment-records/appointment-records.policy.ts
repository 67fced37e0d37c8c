import type { AppointmentStatus } from '@vetcall/shared/appointment-status';
import { JOIN_LINK_VALID_AFTER_START_MS } from '@vetcall/shared/constants';
import type { Actor } from '../auth/auth.service.ts';
import { canViewVetProfile } from '../staff/staff.policy.ts';

/** The two parties of an appointment. */
export interface AppointmentParties {
  customerUserId: number;
  vetUserId: number;
}

/** In which role someone sees an appointment: its customer, its vet, or a manager (SPEC §6). */
export type AppointmentViewer = 'customer' | 'vet' | 'manager';

/**
 * The role in which the actor sees the appointment, or undefined when it is not theirs to see: a customer
 * sees their own appointments, a vet the ones assigned to them, managers all.
 */
export function viewerOf(actor: Actor, appointment: AppointmentParties): AppointmentViewer | undefined {
  if (actor.type === 'customer') return actor.userId === appointment.customerUserId ? 'customer' : undefined;
  if (actor.type === 'vet') return actor.userId === appointment.vetUserId ? 'vet' : undefined;
  return 'manager';
}

export const canViewAppointment = (actor: Actor, appointment: AppointmentParties) =>
  viewerOf(actor, appointment) !== undefined;

/**
 * Statuses in which an appointment's data and files change: from paid (TK_Requested) until after the
 * consultation (TK_Completed, so the vet can add the report). Before payment and once failed or canceled
 * the record is frozen.
 */
export const EDITABLE_STATUSES = [
  'TK_Requested',
  'TK_Confirmed',
  'TK_Completed',
] as const satisfies readonly AppointmentStatus[];

export const isAppointmentEditable = (status: AppointmentStatus) =>
  (EDITABLE_STATUSES as readonly AppointmentStatus[]).includes(status);

/** SPEC §4 Appointment edit: the customer edits the chief complaint; the vet the observations; managers nothing. */
export const canEditDescription = (actor: Actor, appointment: AppointmentParties) =>
  viewerOf(actor, appointment) === 'customer';
export const canEditObservations = (actor: Actor, appointment: AppointmentParties) =>
  viewerOf(actor, appointment) === 'vet';

/** Files are added by the two parties; managers view and download them (SPEC §6: they change nothing). */
export const canAddFiles = (actor: Actor, appointment: AppointmentParties) => {
  const viewer = viewerOf(actor, appointment);
  return viewer === 'customer' || viewer === 'vet';
};

/** A customer removes only the files they added; the vet any file of their appointment; managers none. */
export const canDeleteFile = (
  actor: Actor,
  appointment: AppointmentParties,
  file: { uploadedByUserId: number | null },
) => {
  const viewer = viewerOf(actor, appointment);
  return viewer === 'vet' || (viewer === 'customer' && file.uploadedByUserId === actor.userId);
};

/** 'A file was added' is sent by whoever the actor is in this appointment, never in another's name. */
export const canNotifyFileAdded = (actor: Actor, appointment: AppointmentParties, byWhom: AppointmentViewer) =>
  viewerOf(actor, appointment) === byWhom;

/** The manager's appointments list and its export (SPEC §2.12). */
export const canListAllAppointments = (actor: Actor) => actor.type === 'manager';

/** A vet's appointments and customers (SPEC §2.11): the vet themself and managers. */
export const canViewVetAppointments = canViewVetProfile;

/**
 * SPEC §4, §9: the join link is offered while the appointment is confirmed and its start is at most one
 * hour in the past.
 */
export const isJoinLinkOpen = (appointment: { status: AppointmentStatus; schedule: Date }, now: Date) =>
  appointment.status === 'TK_Confirmed' &&
  now.getTime() - appointment.schedule.getTime() <= JOIN_LINK_VALID_AFTER_START_MS;
