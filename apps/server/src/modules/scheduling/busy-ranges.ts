import { and, eq, gt, inArray, isNull, lt, min, or, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { BusyRange } from '@vetcall/shared/scheduling/slots';
import type { Database } from '../../db/client.ts';
import { calendarBusyRanges, calendarEvents } from '../../db/schema.ts';

/**
 * A calendar entry that occupies its vet at `now`: not released, and a booking or a hold that has not
 * expired yet. An expired hold stops counting at its expiry, whether or not the release job has run.
 */
export function occupiesVet(now: Date): SQL {
  return and(
    isNull(calendarEvents.releasedAt),
    or(eq(calendarEvents.kind, 'booking'), gt(calendarEvents.expiresAt, now)),
  )!;
}

/**
 * The busy ranges of some vets (by user id) that overlap [window.from, window.to): their holds and bookings,
 * and what their own calendars showed busy when last read (modules/calendar-sync), in one query for all,
 * grouped by vet user id (every asked vet has an entry, empty when free).
 */
export async function busyRangesOf(
  db: Pick<Database, 'select'>,
  vetUserIds: readonly number[],
  now: Date,
  window: { from: Date; to: Date },
): Promise<Map<number, BusyRange[]>> {
  const byVet = new Map<number, BusyRange[]>(vetUserIds.map((id) => [id, []]));
  if (vetUserIds.length === 0) return byVet;
  const ids = [...vetUserIds];
  const rows = await unionAll(
    db
      .select({ vetUserId: calendarEvents.vetUserId, start: calendarEvents.startsAt, end: calendarEvents.endsAt })
      .from(calendarEvents)
      .where(
        and(
          inArray(calendarEvents.vetUserId, ids),
          occupiesVet(now),
          lt(calendarEvents.startsAt, window.to),
          gt(calendarEvents.endsAt, window.from),
        ),
      ),
    db
      .select({
        vetUserId: calendarBusyRanges.vetUserId,
        start: calendarBusyRanges.startsAt,
        end: calendarBusyRanges.endsAt,
      })
      .from(calendarBusyRanges)
      .where(
        and(
          inArray(calendarBusyRanges.vetUserId, ids),
          lt(calendarBusyRanges.startsAt, window.to),
          gt(calendarBusyRanges.endsAt, window.from),
        ),
      ),
  );
  for (const row of rows) byVet.get(row.vetUserId)?.push({ start: row.start, end: row.end });
  return byVet;
}

/** The busy ranges of one vet overlapping the window. */
export async function busyRangesOfVet(
  db: Pick<Database, 'select'>,
  vetUserId: number,
  now: Date,
  window: { from: Date; to: Date },
): Promise<BusyRange[]> {
  return (await busyRangesOf(db, [vetUserId], now, window)).get(vetUserId) ?? [];
}

/**
 * When the first live hold of these vets overlapping the window expires (epoch ms; Infinity when none):
 * at that instant their busy ranges change with no write, so an answer built from them ends there.
 */
export async function firstHoldExpiry(
  db: Pick<Database, 'select'>,
  vetUserIds: readonly number[],
  now: Date,
  window: { from: Date; to: Date },
): Promise<number> {
  if (vetUserIds.length === 0) return Infinity;
  const [row] = await db
    .select({ first: min(calendarEvents.expiresAt) })
    .from(calendarEvents)
    .where(
      and(
        inArray(calendarEvents.vetUserId, [...vetUserIds]),
        isNull(calendarEvents.releasedAt),
        gt(calendarEvents.expiresAt, now),
        lt(calendarEvents.startsAt, window.to),
        gt(calendarEvents.endsAt, window.from),
      ),
    );
  return row?.first ? row.first.getTime() : Infinity;
}
