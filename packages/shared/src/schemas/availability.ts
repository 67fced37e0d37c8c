import { z } from 'zod';
import { DEFAULT_AVAILABILITY_HORIZON, DEFAULT_VET_DESCRIPTION } from '../constants.ts';
import { isValidDateKey } from '../dates.ts';
import { isSupportedHorizon, isValidTimeZone } from '../scheduling/zoned-time.ts';

/**
 * docs/product-rules.md#entities Availability profile, in the booking-profile format of the calendar provider
 * (Aurinko): day schedules name their weekday in lowercase English; times are HH:MM wall-clock times in
 * `workHours.timezone` (an IANA zone); date-specific intervals replace the weekly pattern on their date.
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** ISO weekday number (Monday = 1) of a weekday name. */
export const isoWeekdayOf = (day: Weekday) => WEEKDAYS.indexOf(day) + 1;

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
/** `abort`: a malformed time stops the order and overlap checks, which would compare it as text. */
export const timeOfDaySchema = z.string().regex(TIME, { error: 'invalid_format', abort: true });

export const workingIntervalSchema = z
  .object({ start: timeOfDaySchema, end: timeOfDaySchema })
  .refine((interval) => interval.end > interval.start, { error: 'end_before_start', path: ['end'] });

/** docs/product-rules.md#validation: intervals in one day must not overlap (touching is fine). */
const dayIntervalsSchema = z
  .array(workingIntervalSchema)
  .max(24)
  .refine(
    (intervals) => {
      const sorted = [...intervals].sort((a, b) => a.start.localeCompare(b.start));
      return sorted.every((interval, index) => index === 0 || sorted[index - 1]!.end <= interval.start);
    },
    { error: 'overlap' },
  );

export const availabilityProfileSchema = z.object({
  id: z.number().int(),
  name: z.string().trim().min(1).max(120),
  durationMinutes: z.number().int().min(5).max(480),
  availabilityStep: z.number().int().min(5).max(480),
  /** ISO 8601 duration of the bookable horizon from today, e.g. P10W (docs/product-rules.md#limits default). */
  timeAvailableFor: z
    .string()
    .regex(/^P\d{1,3}[DWM]$/, { error: 'invalid_format' })
    .refine(isSupportedHorizon, { error: 'too_big' })
    .default(DEFAULT_AVAILABILITY_HORIZON),
  subject: z.string().max(200).default(''),
  description: z.string().max(2000).default(DEFAULT_VET_DESCRIPTION),
  location: z.string().max(200),
  workHours: z.object({
    timezone: z.string().refine(isValidTimeZone, { error: 'invalid_value' }),
    daySchedules: z
      .array(
        z.object({ dayOfWeek: z.enum(WEEKDAYS, { error: 'invalid_value' }), workingIntervals: dayIntervalsSchema }),
      )
      .max(7)
      .refine((days) => new Set(days.map((day) => day.dayOfWeek)).size === days.length, { error: 'invalid_value' }),
  }),
  availabilityIntervals: z.object({
    intervals: z
      .array(
        z.object({
          dateStartInclusive: z.string().refine(isValidDateKey, { error: 'invalid_format' }),
          hours: dayIntervalsSchema,
        }),
      )
      .max(400)
      // One entry per date, as one schedule per weekday: two entries of a date would escape the overlap check.
      .refine((entries) => new Set(entries.map((entry) => entry.dateStartInclusive)).size === entries.length, {
        error: 'invalid_value',
      }),
  }),
  context: z.string().max(500).default(''),
  startConference: z.boolean().default(true),
});
export type AvailabilityProfile = z.infer<typeof availabilityProfileSchema>;

/** PATCH /api/vets/availability/{vet_id}/{profile_id}: the profile without its id. */
export const availabilityProfileUpdateSchema = availabilityProfileSchema.omit({ id: true });
