import type { Actor } from '../auth/auth.service.ts';

/** Free slots and vets available on a date: every logged-in user (customers book, staff look). */
export const canReadSlots = (actor: Actor) =>
  actor.type === 'customer' || actor.type === 'vet' || actor.type === 'manager';

/**
 * Holds are made in the actor's name: customers on any vet (to book, or to move their appointment), a vet on
 * their own calendar and managers on any vet's (to move an appointment). Only a customer's hold can become
 * a new booking (canBookAppointment).
 */
export const canHoldSlot = (actor: Actor, vetUserId: number) =>
  actor.type === 'customer' || actor.type === 'manager' || (actor.type === 'vet' && actor.userId === vetUserId);

/** A hold is given back by whoever made it, no one else. */
export const canReleaseHold = (actor: Actor, hold: { customerUserId: number | null }) =>
  hold.customerUserId === actor.userId;

/**
 * Every vet's availability at once (docs/product-rules.md#permissions: managers view and export vets' availability).
 */
export const canViewAllAvailabilities = (actor: Actor) => actor.type === 'manager';

/**
 * The taken times of a vet's calendar: the vet themself and managers (docs/product-rules.md#vet-screens
 * availabilityslots).
 */
export const canSeeBookedTimes = (actor: Actor, vetUserId: number) =>
  actor.type === 'manager' || (actor.type === 'vet' && actor.userId === vetUserId);
