import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { isPasswordStrengthLoaded, loadPasswordStrength } from '@vetcall/shared/password-strength';
import { newPasswordField } from '@vetcall/shared/schemas/fields';

/**
 * The password dictionaries take about 55 MB and half a second to load, and only the few routes that set a new
 * password use them. They are loaded by the first request to such a route, before its body is validated: until
 * they are in, the shared schemas cannot refuse a weak password (password-strength.ts). Other routes never wait.
 */
export function registerPasswordStrengthLoading(app: FastifyInstance): void {
  const loadDictionaries: preValidationAsyncHookHandler = async () => {
    if (!isPasswordStrengthLoaded()) await loadPasswordStrength();
  };
  app.addHook('onRoute', (route) => {
    if (!bodyScoresNewPassword(route.schema?.body)) return;
    const existing = route.preValidation;
    route.preValidation = [loadDictionaries, ...(existing ? [existing].flat() : [])];
  });
}

/** Body schemas are module constants, the same objects in every app built: each is searched once. */
const verdicts = new WeakMap<object, boolean>();

function bodyScoresNewPassword(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  let verdict = verdicts.get(body);
  if (verdict === undefined) verdicts.set(body, (verdict = scoresNewPassword(body)));
  return verdict;
}

/** Whether a (zod) body schema contains the new-password field, whose check scores the password. */
export function scoresNewPassword(schema: unknown, seen = new Set<unknown>()): boolean {
  if (schema === newPasswordField) return true;
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  // A zod schema keeps what it is made of in its definition (an object's shape, a union's options, a pipe's
  // ends, an optional's inner type…): searched whole rather than by kind, so no wrapper can hide the field.
  const definition = (schema as { _zod?: { def?: object } })._zod?.def;
  if (definition) return Object.values(definition).some((part) => scoresNewPassword(part, seen));
  const parts = Array.isArray(schema) ? schema : Object.values(schema);
  return parts.some((part) => scoresNewPassword(part, seen));
}
