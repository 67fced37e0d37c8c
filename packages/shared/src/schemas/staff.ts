import { z } from 'zod';
import {
  DISCOUNT_MAX,
  DISCOUNT_MIN,
  DISCOUNT_STEP,
  MIN_NAME_LENGTH,
  MIN_PHONE_LENGTH,
  MIN_SPECIALTY_LENGTH,
} from '../constants.ts';
import { LOCALES } from '../locales.ts';
import { USER_TYPES } from '../roles.ts';
import {
  emailField,
  idParam,
  newPasswordField,
  passwordConfirmationField,
  passwordNotFrom,
  passwordsMatch,
  requiredText,
} from './fields.ts';

export const userTypeParamsSchema = z.object({ type: z.enum(USER_TYPES, { error: 'invalid_value' }) });
export const staffTypeParamsSchema = z.object({ type: z.enum(['vet', 'manager'], { error: 'invalid_value' }) });
export const userIdParamsSchema = z.object({ user_id: idParam });

const nameField = requiredText({ min: MIN_NAME_LENGTH, max: 120 });
const phoneField = requiredText({ min: MIN_PHONE_LENGTH, max: 30 });
const specialtyField = requiredText({ min: MIN_SPECIALTY_LENGTH, max: 120 });
const discountField = z
  .number({ error: 'required' })
  .int({ error: 'invalid_format' })
  .min(DISCOUNT_MIN, { error: 'too_small' })
  .max(DISCOUNT_MAX, { error: 'too_big' })
  .refine((value) => value % DISCOUNT_STEP === 0, { error: 'invalid_format' });

const staffPassword = passwordNotFrom(['email', 'name']);

/**
 * docs/product-rules.md#validation New user: a manager creates vets (with phone and specialty) and managers (without
 * phone).
 */
export const newVetSchema = z
  .object({
    name: nameField,
    email: emailField,
    password: newPasswordField,
    confirmation: passwordConfirmationField,
    phone: phoneField,
    specialty: specialtyField,
  })
  .refine(passwordsMatch.check, passwordsMatch.issue)
  .refine(staffPassword.check, staffPassword.issue);
export const newManagerSchema = z
  .object({ name: nameField, email: emailField, password: newPasswordField, confirmation: passwordConfirmationField })
  .refine(passwordsMatch.check, passwordsMatch.issue)
  .refine(staffPassword.check, staffPassword.issue);
export type NewVetInput = z.input<typeof newVetSchema>;
export type NewManagerInput = z.input<typeof newManagerSchema>;

/** The body of POST /api/users/{type}: checked against newVetSchema or newManagerSchema by type. */
export const newStaffBodySchema = z.object({
  name: z.string().optional(),
  email: z.string().optional(),
  password: z.string().optional(),
  confirmation: z.string().optional(),
  phone: z.string().optional(),
  specialty: z.string().optional(),
});

/**
 * A row of the manager's user tables (docs/product-rules.md#manager-screens); which fields are filled depends on the
 * type.
 */
export const userRowSchema = z.object({
  user_id: z.number().int(),
  type: z.enum(USER_TYPES),
  name: z.string(),
  email: z.string(),
  active: z.boolean(),
  phone: z.string().optional(),
  address: z.string().optional(),
  tax_id: z.string().optional(),
  customer_id: z.number().int().optional(),
  vet_id: z.number().int().optional(),
  specialty: z.string().optional(),
  discount: z.number().int().optional(),
  calendar_linked: z.boolean().optional(),
});
export type UserRow = z.infer<typeof userRowSchema>;

/** What customers and vets may see of vets: name and specialty (the photo is at /api/users/image/{user_id}/). */
/** What customers and vets see of a vet: ids (user and vet id, for slots and booking), name and specialty. */
export const publicVetSchema = z.object({
  user_id: z.number().int(),
  vet_id: z.number().int(),
  name: z.string(),
  specialty: z.string(),
});
export type PublicVet = z.infer<typeof publicVetSchema>;

export const nameUpdateSchema = z.object({ name: nameField });
export const emailUpdateSchema = z.object({ email: emailField });
export const specialtyUpdateSchema = z.object({ specialty: specialtyField });
export const phoneUpdateSchema = z.object({ phone: phoneField });

/** /managerdata (docs/product-rules.md#manager-screens): a manager's own data. */
export const managerProfileSchema = z.object({ name: nameField, email: emailField });
export const managerSchema = z.object({
  user_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  locale: z.enum(LOCALES),
});
export type Manager = z.infer<typeof managerSchema>;

/**
 * /vetdata (docs/product-rules.md#vet-screens): a vet's own data; discount 0–100 in steps of 5
 * (docs/product-rules.md#validation).
 */
export const vetProfileSchema = z.object({
  name: nameField,
  email: emailField,
  phone: phoneField,
  specialty: specialtyField,
  discount: discountField,
});
export type VetProfileInput = z.input<typeof vetProfileSchema>;
export const vetSchema = z.object({
  user_id: z.number().int(),
  vet_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  specialty: z.string(),
  discount: z.number().int(),
  /**
   * docs/product-rules.md#states: the calendar is linked when the account token is non-empty; the token itself stays on
   * the server.
   */
  calendar_linked: z.boolean(),
  locale: z.enum(LOCALES),
});
export type Vet = z.infer<typeof vetSchema>;

export const profileUpdateResponseSchema = z.object({ user_id: z.number().int(), email_changed: z.boolean() });

/**
 * GET /api/vets/record/{vet_id}/{language}?cursor: one keyset page of the vet's appointments, newest first;
 * `next_cursor` is passed as `cursor` for the next page (null at the end).
 */
export const vetRecordSchema = z.object({
  vet: publicVetSchema.extend({ vet_id: z.number().int() }),
  appointments: z.array(
    z.object({
      appointment_id: z.number().int(),
      hash: z.string(),
      schedule: z.string(),
      customer_name: z.string(),
      pet_id: z.number().int(),
      pet_name: z.string(),
      appointment_status_key: z.string(),
      status_date: z.string(),
    }),
  ),
  next_cursor: z.string().nullable(),
});
