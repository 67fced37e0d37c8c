import { AppError } from '../errors.ts';

/** Where a keyset page ends: the last row's ordering instant (ISO 8601) and id, its tie-breaker. */
export interface KeysetCursor {
  at: string;
  id: number;
}

const MAX_INTEGER_ID = 2_147_483_647;

/** An opaque page cursor: base64url of the last row's instant and id. */
export function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

/** The cursor a list gave; anything else (forged, truncated, out of range) is 400 with `cursor: invalid_format`. */
export function decodeCursor(text: string): KeysetCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      !Number.isNaN(new Date(value[0]).getTime()) &&
      Number.isInteger(value[1]) &&
      (value[1] as number) > 0 &&
      (value[1] as number) <= MAX_INTEGER_ID
    ) {
      return { at: new Date(value[0]).toISOString(), id: value[1] as number };
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw new AppError('validation_failed', 400, {
    message: 'The cursor is not one this list gave.',
    fields: { cursor: 'invalid_format' },
  });
}
