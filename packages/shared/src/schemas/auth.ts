import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../constants.ts';
import { LOCALES } from '../locales.ts';
import { USER_TYPES } from '../roles.ts';
import { emailField, localeField, newPasswordField, passwordConfirmationField, passwordsMatch } from './fields.ts';

export const loginInputSchema = z.object({
  email: emailField,
  // Existing passwords are checked as typed; only their size is bounded.
  password: z
    .string({ error: 'required' })
    .min(1, { error: 'required' })
    .max(MAX_PASSWORD_LENGTH, { error: 'too_long' }),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

/** The user data stored by the web app after login (docs/product-rules.md#entities Session, #states Session). */
export const sessionUserSchema = z.object({
  user_id: z.number().int(),
  type: z.enum(USER_TYPES),
  name: z.string(),
  email: z.string(),
  locale: z.enum(LOCALES),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const loginResponseSchema = z.object({
  token: z.string(),
  type: z.enum(USER_TYPES),
  user: sessionUserSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const languageParamsSchema = z.object({ language: localeField });

export const passwordResetRequestSchema = z.object({ email: emailField });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

export const updatePasswordSchema = z.object({
  password: newPasswordField,
  token: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(200, { error: 'too_long' }),
});
export type UpdatePasswordInput = z.infer<typeof updatePasswordSchema>;

/**
 * The New password form (docs/product-rules.md#login-and-account): both fields required and equal; only `password` is
 * sent.
 */
export const newPasswordFormSchema = z
  .object({ password: newPasswordField, confirmation: passwordConfirmationField })
  .refine(passwordsMatch.check, passwordsMatch.issue);

export const resetPasswordFormSchema = passwordResetRequestSchema;

export const okResponseSchema = z.object({ ok: z.literal(true) });
