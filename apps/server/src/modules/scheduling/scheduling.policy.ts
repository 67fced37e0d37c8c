import type { Actor } from '../auth/auth.service.ts';

/** Free slots and vets available on a date: every logged-in user (customers book, staff look). */
export const canReadSlots = (actor: Actor) =>
  actor.type === 'customer' || actor.type === 'vet' || actor.type === 'manager';

/** Only customers hold slots, and only for themselves (the hold is made in the actor's name). */
export const canHoldSlot = (actor: Actor) => actor.type === 'customer';

/** A hold is given back by the customer who made it, no one else. */
export const canReleaseHold = (actor: Actor, hold: { customerUserId: number | null }) =>
  actor.type === 'customer' && hold.customerUserId === actor.userId;

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
