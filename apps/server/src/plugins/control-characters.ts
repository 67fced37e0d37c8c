import type { FastifyInstance } from 'fastify';
import { hasControlCharacter } from '@vetcall/shared/control-characters';
import { AppError } from '../errors.ts';

/** Deeper than any body of ours: a deeper one is left to its route's schema. */
const MAX_DEPTH = 32;

/** The path ('a.b.0') of the first string, or key, holding a control character; null when there is none. */
function controlCharacterPath(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return hasControlCharacter(value) ? path.join('.') : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (hasControlCharacter(key)) return [...path, key].join('.');
    const found = controlCharacterPath(inner, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Refuses control characters (@vetcall/shared/control-characters) in every path parameter, query and JSON
 * body before any route sees them: 400 validation_failed with the field as `invalid_format`, never a 500
 * from the database refusing U+0000. Multipart parts are checked by their schemas (the shared text fields).
 */
export function registerControlCharacterGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const parts = { params: request.params, query: request.query, body: request.body };
    for (const [part, value] of Object.entries(parts)) {
      const path = controlCharacterPath(value);
      if (path === null) continue;
      throw new AppError('validation_failed', 400, {
        message: 'Text may not contain control characters.',
        fields: { [path || part]: 'invalid_format' },
      });
    }
  });
}
