import type { FastifyInstance } from 'fastify';
import { hasControlCharacter } from '@vetcall/shared/control-characters';
import { AppError } from '../errors.ts';

/** Deeper than any body of ours: a deeper one is left to its route's schema. */
const MAX_DEPTH = 32;

/**
 * The path (['a', 'b', '0']) of the first string, or key, holding a control character; null when there is
 * none. Built on the way back only, so a clean value costs no allocation.
 */
function controlCharacterPath(value: unknown, depth = 0): string[] | null {
  if (typeof value === 'string') return hasControlCharacter(value) ? [] : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return null;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (hasControlCharacter(key)) return [key];
    const found = controlCharacterPath((value as Record<string, unknown>)[key], depth + 1);
    if (found !== null) return [key, ...found];
  }
  return null;
}

/**
 * Refuses control characters (@vetcall/shared/control-characters) in every path parameter, query and JSON
 * body before any route sees them: 400 validation_failed with the field as `invalid_format`, never a 500
 * from the database refusing U+0000. Multipart parts are checked by their schemas (the shared text fields).
 */
export function registerControlCharacterGuard(app: FastifyInstance): void {
  // Synchronous, and nothing allocated for a request whose parts hold no control character: it runs on
  // every request, and most have a few short parameters at most.
  app.addHook('preValidation', (request, _reply, done) => {
    const failure =
      failureIn('params', request.params) ?? failureIn('query', request.query) ?? failureIn('body', request.body);
    done(failure);
  });
}

/** The 400 for the first control character in one part of the request, or undefined. */
function failureIn(part: string, value: unknown): AppError | undefined {
  const path = controlCharacterPath(value);
  if (path === null) return undefined;
  return new AppError('validation_failed', 400, {
    message: 'Text may not contain control characters.',
    fields: { [path.join('.') || part]: 'invalid_format' },
  });
}
