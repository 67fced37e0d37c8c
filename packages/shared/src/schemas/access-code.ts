import { z } from 'zod';
import { isValidDateKey } from '../dates.ts';
import { idParam, requiredText } from './fields.ts';

export const ACCESS_CODE_MIN = 3;
export const ACCESS_CODE_MAX = 40;
export const ACCESS_CODE_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Codes are compared trimmed and upper-cased: ' demo-free ' is DEMO-FREE. */
export const normalizeAccessCode = (code: string): string => code.trim().toUpperCase();

const dateKeyField = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required' })
  .refine(isValidDateKey, { error: 'invalid_format' });

/** POST /api/appointmentsaccesscodes (managers): a new code, valid from one date to another (inclusive). */
export const accessCodeInputSchema = z
  .object({
    code: requiredText({ min: ACCESS_CODE_MIN, max: ACCESS_CODE_MAX })
      .regex(ACCESS_CODE_PATTERN, { error: 'invalid_format' })
      .toUpperCase(),
    valid_from: dateKeyField,
    valid_to: dateKeyField,
    /** Included: the appointment is free with this code (shown as Free; otherwise Normal). */
    included: z.boolean({ error: 'required' }).default(false),
  })
  .refine(
    (value) =>
      !isValidDateKey(value.valid_from) || !isValidDateKey(value.valid_to) || value.valid_from <= value.valid_to,
    { error: 'invalid_value', path: ['valid_to'] },
  );
export type AccessCodeInput = z.input<typeof accessCodeInputSchema>;

/** docs/product-rules.md#entities Appointment access code, as managers see it. */
export const accessCodeSchema = z.object({
  access_code_id: z.number().int(),
  code: z.string(),
  valid_from: z.string(),
  valid_to: z.string(),
  included: z.boolean(),
  disabled: z.boolean(),
});
export type AccessCode = z.infer<typeof accessCodeSchema>;

export const accessCodeIdParamsSchema = z.object({ access_code_id: idParam });

/** POST /api/appointmentsaccesscodes/validate: the code as typed (trimmed; case does not matter). */
export const accessCodeValidationInputSchema = z.object({
  code: requiredText({ max: 100 }),
});
export type AccessCodeValidationInput = z.input<typeof accessCodeValidationInputSchema>;

/** docs/product-rules.md#entities: a validity check returns valid and included (included is false when not valid). */
export const accessCodeValidationSchema = z.object({ valid: z.boolean(), included: z.boolean() });
export type AccessCodeValidation = z.infer<typeof accessCodeValidationSchema>;
