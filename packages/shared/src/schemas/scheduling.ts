import { z } from 'zod';
import { isValidDateKey } from '../dates.ts';
import { dateKeyToDayNumber, isValidTimeZone } from '../scheduling/zoned-time.ts';
import { availabilityProfileSchema } from './availability.ts';
import { idParam } from './fields.ts';

/**
 * Scheduling contracts (docs/product-rules.md#api Vets and availability; ARCHITECTURE §4 "No double booking"): free
 * slots, vets available on a date, every vet's availability, and the holds a customer puts on a slot.
 */

/** A hold lasts this long unless an appointment claims it. */
export const HOLD_MINUTES = 15;
/** Live holds one customer may keep at once (no slot hoarding). */
export const MAX_LIVE_HOLDS_PER_CUSTOMER = 3;
/** The widest date range one slot query may ask for, both dates included. */
export const MAX_SLOT_QUERY_DAYS = 62;

/** An IANA time zone this runtime knows ('Europe/Lisbon', 'America/Sao_Paulo', …). */
export const timeZoneField = z
  .string()
  .min(1, { error: 'required' })
  .max(64, { error: 'too_long' })
  .refine(isValidTimeZone, { error: 'invalid_value' });

const dateKeyField = z
  .string({ error: 'required' })
  .min(1, { error: 'required' })
  .refine(isValidDateKey, { error: 'invalid_format' });

/** The random, unguessable id of a calendar event (≥128 bits, base64url). */
export const eventIdParam = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, { error: 'invalid_format' });

// ---------------------------------------------------------------------------------------------------------
// Slots
// ---------------------------------------------------------------------------------------------------------

/** Dates from..to (inclusive, at most MAX_SLOT_QUERY_DAYS) as the zone `tz` shows them. */
function refineDateRange(query: { from: string; to: string }, context: z.RefinementCtx) {
  if (!isValidDateKey(query.from) || !isValidDateKey(query.to)) return;
  const days = dateKeyToDayNumber(query.to) - dateKeyToDayNumber(query.from) + 1;
  if (days < 1) context.addIssue({ code: 'custom', message: 'invalid_value', path: ['to'] });
  else if (days > MAX_SLOT_QUERY_DAYS) context.addIssue({ code: 'custom', message: 'too_big', path: ['to'] });
}

const dateRangeFields = { from: dateKeyField, to: dateKeyField, tz: timeZoneField.optional() };

/** GET /api/vets/{vet_id}/slots: dates (inclusive) in `tz`, which defaults to the profile's zone. */
export const slotsQuerySchema = z
  .object({ ...dateRangeFields, profile_id: idParam.optional() })
  .superRefine(refineDateRange);
export type SlotsQuery = z.input<typeof slotsQuerySchema>;

/** One free slot: instants in UTC, with the date and the time of its start as the viewer's zone shows them. */
export const freeSlotSchema = z.object({
  start: z.string(),
  end: z.string(),
  /** 'YYYY-MM-DD' in the answer's zone. */
  date: z.string(),
  /** 'HH:MM' in the answer's zone. */
  local_start: z.string(),
});
export type FreeSlotDto = z.infer<typeof freeSlotSchema>;

/** GET /api/vets/{vet_id}/bookedtimes: dates (inclusive) in `tz`, which defaults to the vet's zone. */
export const bookedTimesQuerySchema = z.object(dateRangeFields).superRefine(refineDateRange);
export type BookedTimesQuery = z.input<typeof bookedTimesQuerySchema>;

/**
 * Time taken in a vet's calendar, for the vet and managers only: a booking (an appointment owns it) or a
 * hold (a customer is booking it now). Who took it is not said: the month view needs no names.
 */
export const bookedTimeSchema = freeSlotSchema.extend({ kind: z.enum(['booking', 'hold']) });
export type BookedTimeDto = z.infer<typeof bookedTimeSchema>;

// ---------------------------------------------------------------------------------------------------------
// Vets with availability on a date, every vet's availability
// ---------------------------------------------------------------------------------------------------------

/** 'YYYYMMDD' (docs/product-rules.md#api "date without dashes"), a real date; parsed to 'YYYY-MM-DD'. */
export const compactDateParam = z
  .string()
  .regex(/^\d{8}$/, { error: 'invalid_format' })
  .transform((value) => `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`)
  .refine(isValidDateKey, { error: 'invalid_value' });

export const withAvailabilityQuerySchema = z.object({ tz: timeZoneField.optional() });

/** The user ids of the vets with at least one free slot on the date. */
export const vetUserIdsSchema = z.array(z.number().int());

/**
 * docs/product-rules.md#entities "Vets availability": per vet, its first availability profile (null if it has none).
 */
export const vetAvailabilitySchema = z.object({
  vet_id: z.number().int(),
  user_id: z.number().int(),
  name: z.string(),
  availability_config: availabilityProfileSchema.nullable(),
});
export type VetAvailability = z.infer<typeof vetAvailabilitySchema>;

// ---------------------------------------------------------------------------------------------------------
// Holds
// ---------------------------------------------------------------------------------------------------------

/** POST /api/scheduling/holds: the slot a customer chose, by its start instant (profile: default the first). */
export const holdInputSchema = z.object({
  vet_id: z.number({ error: 'required' }).int().positive().max(2_147_483_647),
  profile_id: z.number({ error: 'invalid_value' }).int().positive().max(2_147_483_647).optional(),
  start: z.iso.datetime({ offset: true, error: 'invalid_format' }),
});
export type HoldInput = z.input<typeof holdInputSchema>;

/** The calendar event of a hold (docs/product-rules.md#api): its id, the vet, the time and when it lapses. */
export const holdSchema = z.object({
  event_id: z.string(),
  vet_id: z.number().int(),
  start: z.string(),
  end: z.string(),
  expires_at: z.string(),
});
export type Hold = z.infer<typeof holdSchema>;
