import { type AppointmentStatus, canTransition } from './appointment-status.ts';
import {
  CUSTOMER_RESCHEDULE_BEFORE_START_MS,
  FREE_CANCELLATION_BEFORE_START_MS,
  MAX_CUSTOMER_UPLOAD_BYTES,
  MAX_STAFF_UPLOAD_BYTES,
} from './constants.ts';
import type { UserType } from './roles.ts';

/**
 * Who may change what in an appointment's record. The server's policy and the appointment screen call
 * these same functions, so the screen never offers what the server would refuse
 * (docs/product-rules.md#appointment-records).
 */

/** In which role someone sees an appointment: its customer, its vet, or a manager. */
export type AppointmentViewer = 'customer' | 'vet' | 'manager';

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

/** The one text field each party edits: the customer the chief complaint, the vet the observations. */
export function editableFieldOf(viewer: AppointmentViewer): 'description' | 'vet_observations' | null {
  if (viewer === 'customer') return 'description';
  if (viewer === 'vet') return 'vet_observations';
  return null;
}

/** Files are added by the two parties; managers view and download them. */
export const canAddFilesAs = (viewer: AppointmentViewer) => viewer === 'customer' || viewer === 'vet';

/**
 * A vet removes any file of their appointment; a customer only the files they added (the appointment's
 * one customer is the only customer who adds files to it); managers none.
 */
export const canRemoveFile = (viewer: AppointmentViewer, uploadedBy: UserType | null) =>
  viewer === 'vet' || (viewer === 'customer' && uploadedBy === 'customer');

/** The total of one appointment's files: 20 MB when a customer adds them, 40 MB for staff. */
export const uploadCapFor = (role: UserType): number =>
  role === 'customer' ? MAX_CUSTOMER_UPLOAD_BYTES : MAX_STAFF_UPLOAD_BYTES;

/** What cancelling would do now: refused (and why), or allowed with or without a refund. */
export type CancellationTerms =
  { allowed: false; reason: 'invalid_transition' | 'cancellation_closed' } | { allowed: true; refund: boolean };

/**
 * Who may cancel, until when, and with what refund. A customer cancels their own until the start, refunded
 * in full until 24 hours before it (later, the screen warns that nothing is refunded); a vet (their own
 * appointments) and a manager until its end, always refunded. An appointment still waiting for its payment
 * is cancelled with nothing to refund. Completed, cancelled and failed appointments are final.
 */
export function cancellationTerms(
  viewer: AppointmentViewer,
  appointment: { status: AppointmentStatus; schedule: Date; durationMinutes: number; priceCents: number },
  now: Date,
): CancellationTerms {
  const { status } = appointment;
  if (status === 'TK_PendingPayment') return { allowed: true, refund: false };
  if (!canTransition(status, 'TK_Canceled')) return { allowed: false, reason: 'invalid_transition' };
  const start = appointment.schedule.getTime();
  const paid = appointment.priceCents > 0;
  if (viewer === 'customer') {
    if (now.getTime() >= start) return { allowed: false, reason: 'cancellation_closed' };
    return { allowed: true, refund: paid && now.getTime() <= start - FREE_CANCELLATION_BEFORE_START_MS };
  }
  const end = start + appointment.durationMinutes * 60_000;
  if (now.getTime() >= end) return { allowed: false, reason: 'cancellation_closed' };
  return { allowed: true, refund: paid };
}

/** What moving the appointment would do now: refused (and why) or allowed. */
export type RescheduleTerms =
  { allowed: false; reason: 'invalid_transition' | 'reschedule_closed' } | { allowed: true };

/**
 * Who may move an appointment, and until when: a paid one that is still ahead (requested or confirmed); the
 * customer until 24 hours before the start, the vet (their own) and managers until the start. An unpaid
 * appointment is not moved: its hold is short-lived and the customer books again.
 */
export function rescheduleTerms(
  viewer: AppointmentViewer,
  appointment: { status: AppointmentStatus; schedule: Date },
  now: Date,
): RescheduleTerms {
  if (appointment.status !== 'TK_Requested' && appointment.status !== 'TK_Confirmed') {
    return { allowed: false, reason: 'invalid_transition' };
  }
  const closesAt = appointment.schedule.getTime() - (viewer === 'customer' ? CUSTOMER_RESCHEDULE_BEFORE_START_MS : 0);
  return now.getTime() < closesAt ? { allowed: true } : { allowed: false, reason: 'reschedule_closed' };
}

/** What marking the appointment done would do now. */
export type CompletionTerms =
  { allowed: false; reason: 'forbidden' | 'invalid_transition' | 'completion_too_early' } | { allowed: true };

/**
 * The vet of a confirmed appointment marks it done once it has started (it completes by itself when its room
 * closes). Customers and managers do not: the consultation is the vet's to close.
 */
export function completionTerms(
  viewer: AppointmentViewer,
  appointment: { status: AppointmentStatus; schedule: Date },
  now: Date,
): CompletionTerms {
  if (viewer !== 'vet') return { allowed: false, reason: 'forbidden' };
  if (appointment.status !== 'TK_Confirmed') return { allowed: false, reason: 'invalid_transition' };
  if (now.getTime() < appointment.schedule.getTime()) return { allowed: false, reason: 'completion_too_early' };
  return { allowed: true };
}
