import { randomBytes } from 'node:crypto';
import { and, count, eq, gt, isNull, lt, lte } from 'drizzle-orm';
import { findFreeSlots } from '@vetcall/shared/scheduling/slots';
import { addDaysToDateKey, instantToZonedParts } from '@vetcall/shared/scheduling/zoned-time';
import { HOLD_MINUTES, MAX_LIVE_HOLDS_PER_CUSTOMER, type Hold } from '@vetcall/shared/schemas/scheduling';
import type { AppContext } from '../../context.ts';
import { calendarEvents, users } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import { assertAllowed } from '../../plugins/rate-limiter.ts';
import type { Actor } from '../auth/auth.service.ts';
import { findProfile, listProfiles } from '../availability/availability-profiles.ts';
import { busyRangesOfVet, occupiesVet } from './busy-ranges.ts';
import { releaseHoldsWhere } from './hold-release-job.ts';
import { canHoldSlot, canReleaseHold } from './scheduling.policy.ts';
import { engineProfile, findActiveVet } from './slots.service.ts';
import { isExclusionViolation } from '../../db/sql-state.ts';
import { assertBookableDate } from './booking-window.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'limiter'>;

const MINUTE_MS = 60_000;

/** Hold requests per customer: enough to change one's mind, not to sweep a calendar. */
export const HOLD_RATE_LIMIT = { limit: 30, windowMs: 15 * MINUTE_MS } as const;

export const slotTaken = () =>
  new AppError('slot_taken', 409, { message: 'This slot has just been taken; choose another one.' });
const tooManyHolds = () =>
  new AppError('too_many_holds', 409, {
    message: `A customer holds at most ${MAX_LIVE_HOLDS_PER_CUSTOMER} slots at once.`,
  });
const notASlot = () =>
  new AppError('validation_failed', 400, {
    message: 'The start is not a slot of this profile.',
    fields: { start: 'invalid_value' },
  });

/**
 * POST /api/scheduling/holds: the customer holds one free slot of a vet's profile for HOLD_MINUTES.
 * In one transaction: the customer's live holds are counted (their user row locked, so parallel requests
 * of one customer count one after the other), the vet's expired holds in the way are released, and the
 * hold is inserted; the exclusion constraint settles any race for the time (→ 409 slot_taken).
 */
export async function createHold(
  deps: Deps,
  actor: Actor,
  input: { vet_id: number; profile_id?: number; start: string },
): Promise<Hold> {
  assertAllowed(await deps.limiter.hit(`holds:user:${actor.userId}`, HOLD_RATE_LIMIT));
  const vet = await findActiveVet(deps.db, input.vet_id);
  if (!vet) throw notFound();
  if (!canHoldSlot(actor, vet.userId)) throw forbidden();
  const profile =
    input.profile_id === undefined
      ? (await listProfiles(deps.db, vet.vetId))[0]
      : await findProfile(deps.db, vet.vetId, input.profile_id);
  if (!profile) throw notFound();

  const now = deps.clock.now();
  const start = new Date(input.start);
  if (Number.isNaN(start.getTime()) || start < now) throw notASlot();
  const end = new Date(start.getTime() + profile.durationMinutes * MINUTE_MS);

  // A slot of the profile at all, busy or not? (Slots of a vet date start on that date, or the day after
  // when a DST gap moves an interval's end past midnight.)
  const vetDate = instantToZonedParts(start, profile.timezone).dateKey;
  assertBookableDate(actor, vetDate, now, 'start');
  const slots = findFreeSlots(engineProfile(profile), {
    now,
    busy: [],
    from: addDaysToDateKey(vetDate, -1),
    to: vetDate,
  });
  if (!slots.some((slot) => slot.start.getTime() === start.getTime())) throw notASlot();
  // Busy now: refused without a write. A race past this point is settled by the constraint.
  if ((await busyRangesOfVet(deps.db, vet.userId, now, { from: start, to: end })).length > 0) throw slotTaken();

  const eventId = randomBytes(16).toString('base64url');
  const expiresAt = new Date(now.getTime() + HOLD_MINUTES * MINUTE_MS);
  try {
    await deps.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.userId)).for('update');
      const [live] = await tx
        .select({ holds: count() })
        .from(calendarEvents)
        .where(and(eq(calendarEvents.customerUserId, actor.userId), eq(calendarEvents.kind, 'hold'), occupiesVet(now)));
      if ((live?.holds ?? 0) >= MAX_LIVE_HOLDS_PER_CUSTOMER) throw tooManyHolds();
      // Expired holds in the way are released as the job releases them (an unpaid appointment on one fails).
      await releaseHoldsWhere(
        tx,
        and(
          eq(calendarEvents.vetUserId, vet.userId),
          lte(calendarEvents.expiresAt, now),
          lt(calendarEvents.startsAt, end),
          gt(calendarEvents.endsAt, start),
        ),
        now,
      );
      await tx.insert(calendarEvents).values({
        eventId,
        vetUserId: vet.userId,
        customerUserId: actor.userId,
        profileId: profile.id,
        kind: 'hold',
        startsAt: start,
        endsAt: end,
        expiresAt,
        createdAt: now,
      });
    });
  } catch (error) {
    if (isExclusionViolation(error)) throw slotTaken();
    throw error;
  }
  return {
    event_id: eventId,
    vet_id: vet.vetId,
    start: start.toISOString(),
    end: end.toISOString(),
    expires_at: expiresAt.toISOString(),
  };
}

/**
 * DELETE /api/scheduling/holds/{event_id}: the customer who made a live hold gives its time back. Anyone
 * else, an unknown id, a released hold or one an appointment has claimed: 404.
 */
export async function releaseHold(deps: Pick<AppContext, 'db' | 'clock'>, actor: Actor, eventId: string) {
  const [hold] = await deps.db
    .select({ id: calendarEvents.id, customerUserId: calendarEvents.customerUserId })
    .from(calendarEvents)
    .where(
      and(
        eq(calendarEvents.eventId, eventId),
        eq(calendarEvents.kind, 'hold'),
        isNull(calendarEvents.releasedAt),
        isNull(calendarEvents.appointmentId),
      ),
    )
    .limit(1);
  if (!hold || !canReleaseHold(actor, hold)) throw notFound();
  const released = await deps.db
    .update(calendarEvents)
    .set({ releasedAt: deps.clock.now() })
    .where(and(eq(calendarEvents.id, hold.id), isNull(calendarEvents.releasedAt)))
    .returning({ id: calendarEvents.id });
  if (released.length === 0) throw notFound();
}
