import { and, eq, gt, inArray, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { BusyRange } from '@vetcall/shared/scheduling/slots';
import type { Database } from '../../db/client.ts';
import { calendarEvents } from '../../db/schema.ts';

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
 * The busy ranges of some vets (by user id) that overlap [window.from, window.to), one query for all,
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
  const rows = await db
    .select({ vetUserId: calendarEvents.vetUserId, start: calendarEvents.startsAt, end: calendarEvents.endsAt })
    .from(calendarEvents)
    .where(
      and(
        inArray(calendarEvents.vetUserId, [...vetUserIds]),
        occupiesVet(now),
        lt(calendarEvents.startsAt, window.to),
        gt(calendarEvents.endsAt, window.from),
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
