import { z } from 'zod';
import { DATE_FLOOR, MIN_NAME_LENGTH, PET_WEIGHT_MAX, PET_WEIGHT_MIN, POLICY_MAX, POLICY_MIN } from '../constants.ts';
import { isValidDateKey } from '../dates.ts';
import { choiceField, idParam, requiredText } from './fields.ts';

export const PET_GENDERS = ['F', 'M'] as const;
export const FERTILE_STATUSES = ['intact', 'neutered'] as const;

/**
 * A weight with at most one decimal (docs/product-rules.md#validation: step 0.1), tolerant of binary floating point.
 */
const weightField = z
  .number({ error: 'required' })
  .min(PET_WEIGHT_MIN, { error: 'too_small' })
  .max(PET_WEIGHT_MAX, { error: 'too_big' })
  .refine((value) => Math.abs(Math.round(value * 10) - value * 10) < 1e-6, { error: 'invalid_format' });

/** A birth date from DATE_FLOOR up to `today()` (a date key), which is read at each check. */
function birthField(today: () => string) {
  return z
    .string({ error: 'required' })
    .min(1, { error: 'required' })
    .refine(isValidDateKey, { error: 'invalid_format' })
    .refine((value) => value >= DATE_FLOOR, { error: 'too_small' })
    .refine((value) => value <= today(), { error: 'too_big' });
}

/**
 * docs/product-rules.md#entities Pet and #validation Pet rules; one schema for the pet form and for POST/PUT /api/pets.
 * `today` is the clinic's date (docs/product-rules.md#validation: the birth is no later than today in the clinic's time
 * zone): the server gives it from its clock, the web app from the browser's clock, both in CLINIC_TIME_ZONE.
 */
export function petInputSchemaFor(today: () => string) {
  return z.object({
    name: requiredText({ min: MIN_NAME_LENGTH, max: 60 }),
    /** 'Dog', 'Cat', 'Other', or free text of at least 2 characters. */
    species: requiredText({ min: 2, max: 40 }),
    breed_id: z.number().int().positive().nullable().default(null),
    /** Free-text breed (at least 2 characters) when no catalogue breed is chosen; may be empty. */
    breed: z
      .string()
      .trim()
      .max(60, { error: 'too_long' })
      .refine((value) => value === '' || value.length >= 2, { error: 'too_short' })
      .default(''),
    gender: choiceField(PET_GENDERS),
    birth: birthField(today),
    fertile_status: choiceField(FERTILE_STATUSES),
    weight: weightField,
    /** Insurance policy: 8 to 19 letters or digits, only when insurance is in use. */
    policy: z
      .string()
      .trim()
      .refine((value) => value === '' || new RegExp(`^[A-Za-z0-9]{${POLICY_MIN},${POLICY_MAX}}$`).test(value), {
        error: 'invalid_format',
      })
      .nullable()
      .default(null),
  });
}
export type PetInput = z.input<ReturnType<typeof petInputSchemaFor>>;

export const petSchema = z.object({
  pet_id: z.number().int(),
  user_id: z.number().int(),
  customer_id: z.number().int(),
  name: z.string(),
  species: z.string(),
  breed_id: z.number().int().nullable(),
  /** The breed as shown: the catalogue name in the requested language, or the free text. */
  breed: z.string(),
  gender: z.enum(PET_GENDERS),
  birth: z.string(),
  fertile_status: z.enum(FERTILE_STATUSES),
  weight: z.number(),
  policy: z.string().nullable(),
  archived: z.boolean(),
});
export type Pet = z.infer<typeof petSchema>;

export const petIdParamsSchema = z.object({ pet_id: idParam });

/** DELETE /api/pets/{pet_id}: a pet with appointment history is archived rather than deleted. */
export const petDeletionSchema = z.object({ pet_id: z.number().int(), archived: z.boolean() });

/** One row of a pet's appointment history (docs/product-rules.md#pet-records). */
export const petHistoryEntrySchema = z.object({
  appointment_id: z.number().int(),
  hash: z.string(),
  schedule: z.string(),
  vet_user_id: z.number().int(),
  vet_name: z.string(),
  appointment_status_key: z.string(),
  status_date: z.string(),
  /**
   * The viewer's own PIN for the call (docs/product-rules.md#pet-records, #states): the customer's for the pet's owner,
   * the vet's for that appointment's vet, only while the status is TK_Confirmed and the start is at most 1 hour past;
   * otherwise (and always for managers and other vets) null, and the screen shows 'link not available'.
   */
  join_pin: z.string().nullable(),
});

/**
 * GET /api/pets/record/{pet_id}/{language}?cursor: the pet, its age and one keyset page of its appointment
 * history, newest first. `history_next_cursor` is passed as `cursor` for the next page (null at the end).
 */
export const petRecordSchema = z.object({
  pet: petSchema,
  age: z.object({ years: z.number().int(), months: z.number().int() }),
  history: z.array(petHistoryEntrySchema),
  history_next_cursor: z.string().nullable(),
});
export type PetRecord = z.infer<typeof petRecordSchema>;
