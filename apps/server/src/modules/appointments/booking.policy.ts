import type { Actor } from '../auth/auth.service.ts';

/** Only customers book, and only for themselves (SPEC §6; the appointment is made in the actor's name). */
export const canBookAppointment = (actor: Actor) => actor.type === 'customer';

/** A customer books with their own identity: customer_user_id must be theirs. */
export const isBookingForSelf = (actor: Actor, customerUserId: number) =>
  canBookAppointment(actor) && actor.userId === customerUserId;

/** The price before paying is shown to the customer who is booking. */
export const canQuoteAppointment = canBookAppointment;
