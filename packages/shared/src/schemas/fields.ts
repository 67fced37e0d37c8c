import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../constants.ts';
import { hasControlCharacter } from '../control-characters.ts';
import { FIELD_ERROR_CODES, type FieldErrorCode } from '../error-codes.ts';
import { LOCALES, normalizeLocale } from '../locales.ts';

/**
 * Field builders whose messages are stable field codes (`too_short`, `invalid_email`, …) rather than
 * prose, so the server can return them in `fields` and the form can translate them.
 */
export function requiredText(options: { min?: number; max?: number } = {}) {
  const { min = 1, max = 500 } = options;
  return z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .min(min, { error: 'too_short' })
    .max(max, { error: 'too_long' })
    .refine((text) => !hasControlCharacter(text), { error: 'invalid_format' });
}

export const emailField = z
  .string({ error: 'required' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'required' })
  .max(MAX_EMAIL_LENGTH, { error: 'too_long' })
  .pipe(z.email({ error: 'invalid_email' }));

/** Passwords are never trimmed: spaces are legitimate characters in a passphrase. */
export const newPasswordField = z
  .string({ error: 'required' })
  .min(1, { error: 'required' })
  .min(MIN_PASSWORD_LENGTH, { error: 'too_short' })
  .max(MAX_PASSWORD_LENGTH, { error: 'too_long' });

export const localeField = z.preprocess(
  (value) => (typeof value === 'string' ? (normalizeLocale(value) ?? value) : value),
  z.enum(LOCALES, { error: 'invalid_value' }),
);

function isFieldErrorCode(value: string): value is FieldErrorCode {
  return (FIELD_ERROR_CODES as readonly string[]).includes(value);
}

/** Maps zod issues to `{ 'a.b': code }`, keeping the first issue per field. */
export function fieldErrorsFromIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string; code?: string }[],
): Record<string, FieldErrorCode> {
  const fields: Record<string, FieldErrorCode> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    if (fields[key]) continue;
    if (isFieldErrorCode(issue.message)) fields[key] = issue.message;
    else if (issue.code === 'invalid_type') fields[key] = 'required';
    else if (issue.code === 'too_small') fields[key] = 'too_small';
    else if (issue.code === 'too_big') fields[key] = 'too_big';
    else if (issue.code === 'invalid_format') fields[key] = 'invalid_format';
    else fields[key] = 'invalid_value';
  }
  return fields;
}

/** One of fixed values: 'required' when missing, 'invalid_value' when something else was sent. */
export function choiceField<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined || (typeof issue.input === 'string' && issue.input.trim() === '')
        ? 'required'
        : 'invalid_value',
  });
}

/**
 * A database id in a URL path: plain decimal digits within PostgreSQL's integer range. Stricter than
 * number coercion, which would read `1e3` as 1000 or ` 7` as 7.
 */
export const idParam = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, { error: 'invalid_format' })
  .transform(Number)
  .pipe(z.number().max(2_147_483_647, { error: 'too_big' }));
