import { and, asc, eq } from 'drizzle-orm';
import { isoWeekdayOf, WEEKDAYS, type AvailabilityProfile, type Weekday } from '@vetcall/shared/schemas/availability';
import type { Database } from '../../db/client.ts';
import { availabilityProfiles, type StoredDaySchedule, vets } from '../../db/schema.ts';

type ProfileRow = typeof availabilityProfiles.$inferSelect;
type ProfileValues = Omit<AvailabilityProfile, 'id'>;

/** Stored rows keep ISO weekday numbers; the API speaks the provider's weekday names. */
export function toApiProfile(row: ProfileRow): AvailabilityProfile {
  return {
    id: row.id,
    name: row.name,
    durationMinutes: row.durationMinutes,
    availabilityStep: row.availabilityStep,
    timeAvailableFor: row.timeAvailableFor,
    subject: row.subject,
    description: row.description,
    location: row.location,
    workHours: {
      timezone: row.timezone,
      daySchedules: [...row.daySchedules]
        .sort((a, b) => a.dayOfWeek - b.dayOfWeek)
        .map((day) => ({ dayOfWeek: WEEKDAYS[day.dayOfWeek - 1] as Weekday, workingIntervals: day.workingIntervals })),
    },
    availabilityIntervals: {
      intervals: [...row.availabilityIntervals].sort((a, b) =>
        a.dateStartInclusive.localeCompare(b.dateStartInclusive),
      ),
    },
    context: row.context,
    startConference: row.startConference,
  };
}

export function toColumns(values: ProfileValues) {
  const byStart = (a: { start: string }, b: { start: string }) => a.start.localeCompare(b.start);
  return {
    name: values.name,
    durationMinutes: values.durationMinutes,
    availabilityStep: values.availabilityStep,
    timeAvailableFor: values.timeAvailableFor,
    subject: values.subject,
    description: values.description,
    location: values.location,
    timezone: values.workHours.timezone,
    daySchedules: values.workHours.daySchedules.map((day): StoredDaySchedule => ({
      dayOfWeek: isoWeekdayOf(day.dayOfWeek),
      workingIntervals: [...day.workingIntervals].sort(byStart),
    })),
    availabilityIntervals: values.availabilityIntervals.intervals.map((entry) => ({
      dateStartInclusive: entry.dateStartInclusive,
      hours: [...entry.hours].sort(byStart),
    })),
    context: values.context,
    startConference: values.startConference,
  };
}

/** A new vet's profile: 30-minute consultations every 30 minutes, Europe/Lisbon, no hours yet. */
export async function createDefaultProfile(
  db: Database,
  vetId: number,
  overrides: Partial<typeof availabilityProfiles.$inferInsert> = {},
) {
  const [row] = await db
    .insert(availabilityProfiles)
    .values({ vetId, ...overrides })
    .returning();
  return row!;
}

export async function listProfiles(db: Database, vetId: number) {
  return db
    .select()
    .from(availabilityProfiles)
    .where(eq(availabilityProfiles.vetId, vetId))
    .orderBy(asc(availabilityProfiles.id));
}

export async function findProfile(db: Database, vetId: number, profileId: number) {
  const [row] = await db
    .select()
    .from(availabilityProfiles)
    .where(and(eq(availabilityProfiles.vetId, vetId), eq(availabilityProfiles.id, profileId)))
    .limit(1);
  return row;
}

/**
 * The zone of a vet's first availability profile (by the vet's user id): the zone the vet works in. Null for a
 * vet with no profile; each caller says what stands in for it.
 */
export async function vetTimeZone(db: Pick<Database, 'select'>, vetUserId: number): Promise<string | null> {
  const [profile] = await db
    .select({ timezone: availabilityProfiles.timezone })
    .from(availabilityProfiles)
    .innerJoin(vets, eq(vets.id, availabilityProfiles.vetId))
    .where(eq(vets.userId, vetUserId))
    .orderBy(asc(availabilityProfiles.id))
    .limit(1);
  return profile?.timezone ?? null;
}
