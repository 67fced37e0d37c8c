import { type AvailabilityProfile, WEEKDAYS } from '../schemas/availability.ts';
import type { VetAvailability } from '../schemas/scheduling.ts';
import { isoWeekday } from './zoned-time.ts';
import type { WorkingInterval } from './slots.ts';

/**
 * docs/product-rules.md#entities "Vets availability" flattened to entries of date, name and hours: what the manager's
 * vets_availability table shows and its Excel export holds, computed the same way on both sides.
 */

/** One vet's working hours on one date, in the vet's own zone. */
export interface VetsAvailabilityEntry {
  date: string;
  vet_id: number;
  name: string;
  /** '09:00–13:00, 14:00–18:00' */
  hours: string;
  timezone: string;
}

/**
 * docs/product-rules.md#entities: a date's intervals come from its date-specific entry if there is one, else from the
 * weekly pattern.
 */
export function intervalsOnDate(
  profile: Pick<AvailabilityProfile, 'workHours' | 'availabilityIntervals'>,
  date: string,
): WorkingInterval[] {
  const entry = profile.availabilityIntervals.intervals.find((item) => item.dateStartInclusive === date);
  const weekday = WEEKDAYS[isoWeekday(date) - 1];
  const intervals = entry
    ? entry.hours
    : profile.workHours.daySchedules
        .filter((item) => item.dayOfWeek === weekday)
        .flatMap((item) => item.workingIntervals);
  return intervals
    .map((interval) => ({ start: interval.start, end: interval.end }))
    .sort((a, b) => a.start.localeCompare(b.start));
}

/** '09:00–13:00, 14:00–18:00' (en dash between the ends, as times are written). */
export function formatIntervals(intervals: readonly WorkingInterval[]): string {
  return intervals.map((interval) => `${interval.start}\u2013${interval.end}`).join(', ');
}

/** Every vet's working dates among `dates`, ordered by date and then name; dates without hours are left out. */
export function flattenVetsAvailability(
  vets: readonly VetAvailability[],
  dates: readonly string[],
): VetsAvailabilityEntry[] {
  const entries: VetsAvailabilityEntry[] = [];
  for (const date of [...dates].sort()) {
    const ofDate: VetsAvailabilityEntry[] = [];
    for (const vet of vets) {
      const profile = vet.availability_config;
      if (!profile) continue;
      const intervals = intervalsOnDate(profile, date);
      if (intervals.length === 0) continue;
      ofDate.push({
        date,
        vet_id: vet.vet_id,
        name: vet.name,
        hours: formatIntervals(intervals),
        timezone: profile.workHours.timezone,
      });
    }
    entries.push(...ofDate.sort((a, b) => a.name.localeCompare(b.name) || a.vet_id - b.vet_id));
  }
  return entries;
}
