import { and, asc, eq, gt, lt } from 'drizzle-orm';
import type { BookedTimeDto, FreeSlotDto, VetAvailability } from '@vetcall/shared/schemas/scheduling';
import {
  type AvailabilityProfile as EngineProfile,
  findFreeSlots,
  hasFreeSlotOnViewerDate,
} from '@vetcall/shared/scheduling/slots';
import {
  addDaysToDateKey,
  dateKeyToDayNumber,
  instantToZonedParts,
  MAX_HORIZON_DAYS,
  zonedWallTimeToInstant,
} from '@vetcall/shared/scheduling/zoned-time';
import type { AppContext } from '../../context.ts';
import { nextMinuteEdge } from '../../lib/cached-json.ts';
import type { Computed } from '../../lib/versioned-cache.ts';
import type { Database } from '../../db/client.ts';
import { availabilityProfiles, calendarEvents, users, vets } from '../../db/schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';
import { findProfile, listProfiles, toApiProfile } from '../availability/availability-profiles.ts';
import { busyRangesOf, busyRangesOfVet, firstHoldExpiry, occupiesVet } from './busy-ranges.ts';
import { canReadSlots, canSeeBookedTimes, canViewAllAvailabilities } from './scheduling.policy.ts';
import { assertBookableDate } from './booking-window.ts';
import { freshenBusyTimes } from '../calendar-sync/calendar-sync.service.ts';

type Deps = Pick<AppContext, 'db' | 'clock'>;
/** Slots also read the vets' own calendars (modules/calendar-sync). */
type SlotDeps = Pick<AppContext, 'db' | 'clock' | 'config' | 'secrets'>;
type ProfileRow = typeof availabilityProfiles.$inferSelect;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The longest consultation a profile allows (schema and check constraint): busy windows reach this far. */
const MAX_DURATION_MS = 480 * MINUTE_MS;
/** More than any zone's distance from UTC: a date somewhere on Earth lies within this of that date in UTC. */
const ZONE_MARGIN_MS = 15 * 60 * MINUTE_MS;
/** The first and last instants PostgreSQL takes as written (years 0001 to 9999; it has no year 0). */
const FIRST_STORABLE_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_STORABLE_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** A stored profile as the slot engine reads it (stored weekdays are ISO numbers, which it accepts). */
export function engineProfile(row: ProfileRow): EngineProfile {
  return {
    durationMinutes: row.durationMinutes,
    availabilityStep: row.availabilityStep,
    timeAvailableFor: row.timeAvailableFor,
    workHours: { timezone: row.timezone, daySchedules: row.daySchedules },
    availabilityIntervals: { intervals: row.availabilityIntervals },
  };
}

/** An active vet by vet id (not user id), with the user id calendar entries use. */
export async function findActiveVet(db: Database, vetId: number) {
  const [row] = await db
    .select({ vetId: vets.id, userId: vets.userId, name: users.name })
    .from(vets)
    .innerJoin(users, eq(users.id, vets.userId))
    .where(and(eq(vets.id, vetId), eq(users.active, true), eq(users.type, 'vet')))
    .limit(1);
  return row;
}

/** Every active vet with their first profile (lowest id; null if none), in vet id order: one query. */
async function activeVetsWithFirstProfile(db: Database) {
  return db
    .selectDistinctOn([vets.id], {
      vetId: vets.id,
      userId: vets.userId,
      name: users.name,
      profile: availabilityProfiles,
    })
    .from(vets)
    .innerJoin(users, eq(users.id, vets.userId))
    .leftJoin(availabilityProfiles, eq(availabilityProfiles.vetId, vets.id))
    .where(and(eq(users.active, true), eq(users.type, 'vet')))
    .orderBy(asc(vets.id), asc(availabilityProfiles.id));
}

/** Whether a date (day number) can hold a free slot at all: not long past, not beyond any horizon. */
function withinReach(day: number, now: Date): boolean {
  const today = Math.floor(now.getTime() / DAY_MS);
  return day >= today - 1 && day <= today + MAX_HORIZON_DAYS + 1;
}

/**
 * GET /api/vets/{vet_id}/slots: the free slots of one of the vet's profiles (default: the first) whose
 * start falls on the dates from..to as `tz` shows them (default: the profile's zone), labelled in `tz`.
 */
export async function listVetSlots(
  deps: SlotDeps,
  actor: Actor,
  vetId: number,
  query: { from: string; to: string; tz?: string; profile_id?: number },
): Promise<Computed<FreeSlotDto[]>> {
  if (!canReadSlots(actor)) throw forbidden();
  assertBookableDate(actor, query.to, deps.clock.now(), 'to');
  const vet = await findActiveVet(deps.db, vetId);
  if (!vet) throw notFound();
  const profile =
    query.profile_id === undefined
      ? (await listProfiles(deps.db, vetId))[0]
      : await findProfile(deps.db, vetId, query.profile_id);
  if (!profile) throw notFound();

  const now = deps.clock.now();
  // Time alone changes the answer: a slot passes, a day ends, a hold lapses (below).
  const slotPasses = nextMinuteEdge(now);
  const tz = query.tz ?? profile.timezone;
  const fromDay = dateKeyToDayNumber(query.from);
  const toDay = dateKeyToDayNumber(query.to);
  // Dates long past or beyond any horizon have no slots (and stay clear of the calendar's ends).
  if (!withinReach(toDay, now) && !withinReach(fromDay, now)) return { value: [], validUntil: slotPasses };

  const windowStart = zonedWallTimeToInstant(query.from, '00:00', tz);
  const windowEnd = zonedWallTimeToInstant(addDaysToDateKey(query.to, 1), '00:00', tz);
  if (windowEnd <= now) return { value: [], validUntil: slotPasses };
  const busyWindow = { from: windowStart, to: new Date(windowEnd.getTime() + profile.durationMinutes * MINUTE_MS) };
  // The vet's own calendar first: busy times older than 2 minutes are read again (briefly waited for).
  const calendarLapses = await freshenBusyTimes(deps, [vet.userId], busyWindow);
  const [busy, holdLapses] = await Promise.all([
    busyRangesOfVet(deps.db, vet.userId, now, busyWindow),
    firstHoldExpiry(deps.db, [vet.userId], now, busyWindow),
  ]);
  // Slots of a vet date start on that date, except where a DST gap moves an interval's end past midnight:
  // one vet date before the window covers that.
  const vetFrom = addDaysToDateKey(instantToZonedParts(windowStart, profile.timezone).dateKey, -1);
  const vetTo = instantToZonedParts(new Date(windowEnd.getTime() - 1), profile.timezone).dateKey;
  const value = findFreeSlots(engineProfile(profile), { now, busy, from: vetFrom, to: vetTo })
    .filter((slot) => slot.start >= windowStart && slot.start < windowEnd)
    .map((slot) => ({ start: slot.start.toISOString(), end: slot.end.toISOString(), ...localLabels(slot.start, tz) }));
  return { value, validUntil: Math.min(slotPasses, holdLapses, calendarLapses) };
}

/**
 * GET /api/vets/withavailability/{yyyymmdd}: user ids of the active vets with at least one free slot
 * starting on that date as `tz` shows it (default: each vet's own zone). Two queries whatever the number
 * of vets: first profiles, then the busy ranges of all of them in the window of that date.
 */
export async function listVetsWithAvailability(
  deps: SlotDeps,
  actor: Actor,
  dateKey: string,
  tz: string | undefined,
): Promise<Computed<number[]>> {
  if (!canReadSlots(actor)) throw forbidden();
  const now = deps.clock.now();
  assertBookableDate(actor, dateKey, now, 'date');
  // Time alone changes the answer: a vet's last slot of the date passes, a hold lapses (below).
  const slotPasses = nextMinuteEdge(now);
  const day = dateKeyToDayNumber(dateKey);
  if (!withinReach(day, now)) return { value: [], validUntil: slotPasses };

  const candidates = (await activeVetsWithFirstProfile(deps.db)).flatMap((row) =>
    row.profile ? [{ userId: row.userId, profile: row.profile }] : [],
  );
  if (candidates.length === 0) return { value: [], validUntil: slotPasses };
  const window =
    tz === undefined
      ? { from: new Date(day * DAY_MS - ZONE_MARGIN_MS), to: new Date((day + 1) * DAY_MS + ZONE_MARGIN_MS) }
      : {
          from: zonedWallTimeToInstant(dateKey, '00:00', tz),
          to: zonedWallTimeToInstant(addDaysToDateKey(dateKey, 1), '00:00', tz),
        };
  const vetUserIds = candidates.map((candidate) => candidate.userId);
  const busyWindow = { from: window.from, to: new Date(window.to.getTime() + MAX_DURATION_MS) };
  const calendarLapses = await freshenBusyTimes(deps, vetUserIds, busyWindow);
  const [busy, holdLapses] = await Promise.all([
    busyRangesOf(deps.db, vetUserIds, now, busyWindow),
    firstHoldExpiry(deps.db, vetUserIds, now, busyWindow),
  ]);
  const value = candidates
    .filter((candidate) => {
      try {
        return hasFreeSlotOnViewerDate(engineProfile(candidate.profile), dateKey, tz ?? candidate.profile.timezone, {
          now,
          busy: busy.get(candidate.userId) ?? [],
        });
      } catch (error) {
        // A profile the engine cannot read (it passed no schema) makes its vet unavailable, not the list fail.
        if (error instanceof RangeError) return false;
        throw error;
      }
    })
    .map((candidate) => candidate.userId)
    .sort((a, b) => a - b);
  return { value, validUntil: Math.min(slotPasses, holdLapses, calendarLapses) };
}

/** GET /api/vets/all_availabilities (managers): every active vet and their first profile. */
export async function listAllAvailabilities(deps: Deps, actor: Actor): Promise<VetAvailability[]> {
  if (!canViewAllAvailabilities(actor)) throw forbidden();
  return (await activeVetsWithFirstProfile(deps.db)).map((row) => ({
    vet_id: row.vetId,
    user_id: row.userId,
    name: row.name,
    availability_config: row.profile ? toApiProfile(row.profile) : null,
  }));
}

/** An instant with its date and time as `tz` shows them. */
function localLabels(instant: Date, tz: string) {
  const local = instantToZonedParts(instant, tz);
  return { date: local.dateKey, local_start: local.time };
}

/**
 * GET /api/vets/{vet_id}/bookedtimes (the vet themself and managers): the bookings and live holds that
 * start on the dates from..to as `tz` shows them (default: the zone of the vet's first profile).
 */
export async function listVetBookedTimes(
  deps: Deps,
  actor: Actor,
  vetId: number,
  query: { from: string; to: string; tz?: string },
): Promise<BookedTimeDto[]> {
  if (actor.type === 'customer') throw forbidden();
  const vet = await findActiveVet(deps.db, vetId);
  // Another vet's calendar is as unknown to a vet as a missing one: ids do not leak.
  if (!vet || !canSeeBookedTimes(actor, vet.userId)) throw notFound();
  const tz = query.tz ?? (await listProfiles(deps.db, vetId))[0]?.timezone ?? 'UTC';
  // The end is the next midnight ('24:00': the day after 9999-12-31 has no date key), and both are cut to what
  // PostgreSQL takes: the days at either end of the calendar reach past it, which failed the query (a 500).
  const fromMs = Math.max(zonedWallTimeToInstant(query.from, '00:00', tz).getTime(), FIRST_STORABLE_MS + 1);
  const toMs = Math.min(zonedWallTimeToInstant(query.to, '24:00', tz).getTime(), LAST_STORABLE_MS);
  const from = new Date(fromMs);
  const to = new Date(toMs);
  const rows = await deps.db
    .select({ kind: calendarEvents.kind, start: calendarEvents.startsAt, end: calendarEvents.endsAt })
    .from(calendarEvents)
    .where(
      and(
        eq(calendarEvents.vetUserId, vet.userId),
        occupiesVet(deps.clock.now()),
        gt(calendarEvents.startsAt, new Date(from.getTime() - 1)),
        lt(calendarEvents.startsAt, to),
      ),
    )
    .orderBy(asc(calendarEvents.startsAt));
  return rows.map((row) => ({
    start: row.start.toISOString(),
    end: row.end.toISOString(),
    ...localLabels(row.start, tz),
    kind: row.kind,
  }));
}
