import type { AppointmentStatus } from '@vetcall/shared/appointment-status';
import type { Actor } from '../auth/auth.service.ts';

/** Statuses an appointment has only once it is paid (free ones included). */
export const PAID_STATUSES: AppointmentStatus[] = ['TK_Requested', 'TK_Confirmed', 'TK_Completed'];

export const isPaidStatus = (status: AppointmentStatus) => PAID_STATUSES.includes(status);

/** Only the customer who booked an appointment pays for it, looks its payment up or cancels its checkout. */
export const canPayForAppointment = (actor: Pick<Actor, 'type' | 'userId'>, appointment: { customerUserId: number }) =>
  actor.type === 'customer' && actor.userId === appointment.customerUserId;
