import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../constants.ts';
import { hasControlCharacter } from '../control-characters.ts';
import { FIELD_ERROR_CODES, type FieldErrorCode } from '../error-codes.ts';
import { LOCALES, normalizeLocale } from '../locales.ts';
import { isStrongEnough } from '../password-strength.ts';

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

/**
 * A new password's confirmation: the length rules only, as its strength is the password's. Passwords are never
 * trimmed: spaces are legitimate characters in a passphrase.
 */
export const passwordConfirmationField = z
  .string({ error: 'required' })
  .min(1, { error: 'required' })
  .min(MIN_PASSWORD_LENGTH, { error: 'too_short' })
  .max(MAX_PASSWORD_LENGTH, { error: 'too_long' });

/** A new password: one too easy to guess is `weak_password` (password-strength.ts). */
export const newPasswordField = passwordConfirmationField.refine((password) => isStrongEnough(password), {
  error: 'weak_password',
});

/** A form's password and its confirmation must be equal; the mismatch shows on the confirmation. */
export const passwordsMatch = {
  check: (value: { password: string; confirmation: string }) => value.password === value.confirmation,
  issue: { error: 'passwords_mismatch', path: ['confirmation'] },
};

/**
 * A form's password must not be guessable from the form's own fields (its email, its name): `weak_password` on
 * the password, checked once the password passes on its own.
 */
export function passwordNotFrom<const Field extends string>(fields: readonly Field[]) {
  return {
    check: (value: { password: string } & Record<Field, unknown>) => {
      const inputs: unknown[] = fields.map((field) => value[field]);
      return isStrongEnough(
        value.password,
        inputs.filter((input): input is string => typeof input === 'string'),
      );
    },
    issue: {
      error: 'weak_password',
      path: ['password'],
      // Also when other fields have issues, but only on a body whose password passed on its own.
      when: (payload: z.core.ParsePayload) =>
        typeof (payload.value as { password?: unknown } | null)?.password === 'string' &&
        !payload.issues.some((issue) => issue.path?.[0] === 'password'),
    },
  };
}

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

/** The `cursor` query of a keyset-paginated list: the previous page's next cursor, opaque. */
export const pageCursorField = z.string().max(200, { error: 'too_long' }).optional();
/** pageCursorField for lists ordered by a name: the cursor carries the last name (up to 120 characters). */
export const namePageCursorField = z.string().max(1000, { error: 'too_long' }).optional();
/**
 * The header that carries the next page's cursor where the answer is a bare array (GET
 * /api/vets/customers/{vet_id}); absent on the last page. Lower-case, as fetch's Headers and Fastify name it.
 */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';
/** The query of a keyset-paginated list that takes nothing else. */
export const pageQuerySchema = z.object({ cursor: pageCursorField });
export const namePageQuerySchema = z.object({ cursor: namePageCursorField });
