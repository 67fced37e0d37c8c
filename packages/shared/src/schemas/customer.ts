import { z } from 'zod';
import { MIN_NAME_LENGTH, MIN_PHONE_LENGTH } from '../constants.ts';
import { LOCALES } from '../locales.ts';
import {
  choiceField,
  emailField,
  newPasswordField,
  passwordConfirmationField,
  passwordNotFrom,
  passwordsMatch,
  requiredText,
} from './fields.ts';
import { POSTAL_COUNTRIES, isValidPostalCode } from './postal-code.ts';

/**
 * docs/product-rules.md#entities Customer / #validation Customer registration and editing: every field required but
 * vet_center.
 */
const customerFields = {
  name: requiredText({ min: MIN_NAME_LENGTH, max: 120 }),
  email: emailField,
  phone: requiredText({ min: MIN_PHONE_LENGTH, max: 30 }),
  tax_id: requiredText({ max: 30 }),
  address: requiredText({ max: 200 }),
  postal_code: requiredText({ max: 20 }),
  city: requiredText({ max: 100 }),
  state: requiredText({ max: 100 }),
  country: choiceField(POSTAL_COUNTRIES),
  vet_center: z.string().trim().max(120, { error: 'too_long' }).default(''),
};

function postalCodeMatchesCountry(value: { country: (typeof POSTAL_COUNTRIES)[number]; postal_code: string }) {
  return isValidPostalCode(value.country, value.postal_code);
}
const postalCodeIssue = { error: 'invalid_format', path: ['postal_code'] };

export const customerProfileSchema = z.object(customerFields).refine(postalCodeMatchesCountry, postalCodeIssue);
export type CustomerProfileInput = z.input<typeof customerProfileSchema>;

const registrationPassword = passwordNotFrom(['email', 'name']);
export const customerRegistrationSchema = z
  .object({
    ...customerFields,
    password: newPasswordField,
    confirmation: passwordConfirmationField,
    locale: z.enum(LOCALES).optional(),
  })
  .refine(postalCodeMatchesCountry, postalCodeIssue)
  .refine(passwordsMatch.check, passwordsMatch.issue)
  .refine(registrationPassword.check, registrationPassword.issue);
export type CustomerRegistrationInput = z.input<typeof customerRegistrationSchema>;

export const customerSchema = z.object({
  user_id: z.number().int(),
  customer_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  tax_id: z.string(),
  address: z.string(),
  postal_code: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  vet_center: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

export const userIdResponseSchema = z.object({ user_id: z.number().int() });

/** GET /api/users/checkemail/{email}: non-empty when the email is taken (docs/product-rules.md#validation). */
export const emailCheckResponseSchema = z.array(z.object({ email: z.string() }));
