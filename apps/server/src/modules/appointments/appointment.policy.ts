import type { AppointmentStatus } from '@vetcall/shared/appointment-status';
import {
  type AppointmentViewer,
  canAddFilesAs,
  canRemoveFile,
  editableFieldOf,
} from '@vetcall/shared/appointment-rules';
import { JOIN_LINK_VALID_AFTER_START_MS } from '@vetcall/shared/constants';
import type { Actor } from '../auth/auth.service.ts';
import { canViewVetProfile } from '../staff/staff.policy.ts';

/** The two parties of an appointment. */
export interface AppointmentParties {
  customerUserId: number;
  vetUserId: number;
}

/**
 * The role in which the actor sees the appointment, or undefined when it is not theirs to see: a customer
 * sees their own appointments, a vet the ones assigned to them, managers all.
 */
export function viewerOf(actor: Actor, appointment: AppointmentParties): AppointmentViewer | undefined {
  if (actor.type === 'customer') return actor.userId === appointment.customerUserId ? 'customer' : undefined;
  if (actor.type === 'vet') return actor.userId === appointment.vetUserId ? 'vet' : undefined;
  return 'manager';
}

/** Only customers have a list of their own appointments (vets and managers have theirs by filter). */
export const canListOwnAppointments = (actor: Actor) => actor.type === 'customer';

export const canViewAppointment = (actor: Actor, appointment: AppointmentParties) =>
  viewerOf(actor, appointment) !== undefined;

/** The customer edits the chief complaint; the vet the observations; managers nothing. */
export const canEditDescription = (actor: Actor, appointment: AppointmentParties) =>
  editableFieldOf(viewerOf(actor, appointment) ?? 'manager') === 'description';
export const canEditObservations = (actor: Actor, appointment: AppointmentParties) =>
  editableFieldOf(viewerOf(actor, appointment) ?? 'manager') === 'vet_observations';

export const canAddFiles = (actor: Actor, appointment: AppointmentParties) => {
  const viewer = viewerOf(actor, appointment);
  return viewer !== undefined && canAddFilesAs(viewer);
};

/** canRemoveFile of the shared rules, with "the customer's own" checked by user id, not by role. */
export const canDeleteFile = (
  actor: Actor,
  appointment: AppointmentParties,
  file: { uploadedByUserId: number | null },
) => {
  const viewer = viewerOf(actor, appointment);
  if (viewer === undefined) return false;
  return canRemoveFile(viewer, file.uploadedByUserId === actor.userId ? actor.type : null);
};

/** 'A file was added' is sent by whoever the actor is in this appointment, never in another's name. */
export const canNotifyFileAdded = (actor: Actor, appointment: AppointmentParties, byWhom: AppointmentViewer) =>
  viewerOf(actor, appointment) === byWhom;

/** The manager's appointments list and its export (docs/product-rules.md#manager-screens). */
export const canListAllAppointments = (actor: Actor) => actor.type === 'manager';

/** A vet's appointments and customers (docs/product-rules.md#vet-screens): the vet themself and managers. */
export const canViewVetAppointments = canViewVetProfile;

/**
 * docs/product-rules.md#states, #limits: the join link is offered while the appointment is confirmed and its start is
 * at most one hour in the past.
 */
export const isJoinLinkOpen = (appointment: { status: AppointmentStatus; schedule: Date }, now: Date) =>
  appointment.status === 'TK_Confirmed' &&
  now.getTime() - appointment.schedule.getTime() <= JOIN_LINK_VALID_AFTER_START_MS;

/** Only customers book, and only for themselves (the appointment is made in the actor's name). */
export const canBookAppointment = (actor: Actor) => actor.type === 'customer';

/** A customer books with their own identity: customer_user_id must be theirs. */
export const isBookingForSelf = (actor: Actor, customerUserId: number) =>
  canBookAppointment(actor) && actor.userId === customerUserId;

/** The price before paying is shown to the customer who is booking. */
export const canQuoteAppointment = canBookAppointment;

/**
 * Confirmation needs no login (the vet opens it from an email): the hash of the link and the registered
 * email of the vet who owns the appointment, an active account, together are the credential.
 */
export const canConfirmAppointment = (email: string, vet: { email: string; active: boolean }) =>
  vet.active && email.trim().toLowerCase() === vet.email;

/** Statuses an appointment has only once it is paid (free ones included). */
export const PAID_STATUSES: AppointmentStatus[] = ['TK_Requested', 'TK_Confirmed', 'TK_Completed'];

export const isPaidStatus = (status: AppointmentStatus) => PAID_STATUSES.includes(status);

/** Only the customer who booked an appointment pays for it, looks its payment up or cancels its checkout. */
export const canPayForAppointment = (actor: Pick<Actor, 'type' | 'userId'>, appointment: { customerUserId: number }) =>
  actor.type === 'customer' && actor.userId === appointment.customerUserId;
