import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { AppError } from '../errors.ts';

/** Where a keyset page ends: the last row's ordering instant (ISO 8601) and id, its tie-breaker. */
export interface KeysetCursor {
  at: string;
  id: number;
}

/** Where a page ordered by a text key ends (a vet's customers by name): the last row's key and id. */
export interface TextKeysetCursor {
  key: string;
  id: number;
}

const MAX_INTEGER_ID = 2_147_483_647;
/** Longer than any key a list orders by (names are at most 120 characters). */
const MAX_TEXT_KEY_LENGTH = 200;

const invalidCursor = () =>
  new AppError('validation_failed', 400, {
    message: 'The cursor is not one this list gave.',
    fields: { cursor: 'invalid_format' },
  });

const isRowId = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) > 0 && (value as number) <= MAX_INTEGER_ID;

function parsePair(text: string): [unknown, unknown] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2) return value as [unknown, unknown];
  } catch {
    // Falls through: the caller answers 400.
  }
  return undefined;
}

/** An opaque page cursor: base64url of the last row's instant and id. */
export function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

/** The cursor a list gave; anything else (forged, truncated, out of range) is 400 with `cursor: invalid_format`. */
export function decodeCursor(text: string): KeysetCursor {
  const pair = parsePair(text);
  if (pair && typeof pair[0] === 'string' && !Number.isNaN(new Date(pair[0]).getTime()) && isRowId(pair[1])) {
    return { at: new Date(pair[0]).toISOString(), id: pair[1] };
  }
  throw invalidCursor();
}

/** An opaque page cursor for a list ordered by (text key, id). */
export function encodeTextCursor(cursor: TextKeysetCursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id])).toString('base64url');
}

/** decodeCursor for (text key, id) lists: anything but a cursor such a list gave is 400 `cursor: invalid_format`. */
export function decodeTextCursor(text: string): TextKeysetCursor {
  const pair = parsePair(text);
  if (pair && typeof pair[0] === 'string' && pair[0].length <= MAX_TEXT_KEY_LENGTH && isRowId(pair[1])) {
    return { key: pair[0], id: pair[1] };
  }
  throw invalidCursor();
}

/**
 * Rows strictly after the cursor in (key, id) order, ascending or descending, as one row comparison: with an
 * index on (…, key, id) PostgreSQL reads it as an index bound, so a deep page costs what the first does.
 */
export function rowsAfter(
  key: AnyColumn,
  id: AnyColumn,
  cursor: KeysetCursor | TextKeysetCursor,
  direction: 'asc' | 'desc',
): SQL {
  const value = 'at' in cursor ? sql`${cursor.at}::timestamptz` : sql`${cursor.key}::text`;
  return direction === 'asc'
    ? sql`(${key}, ${id}) > (${value}, ${cursor.id}::integer)`
    : sql`(${key}, ${id}) < (${value}, ${cursor.id}::integer)`;
}

/**
 * One keyset page from rows fetched with limit `pageSize + 1`: the page's rows, and the last row's cursor when
 * the extra row shows that more follow (null at the end).
 */
export function keysetPage<Row>(
  rows: Row[],
  pageSize: number,
  cursorOf: (row: Row) => string,
): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > pageSize && last ? cursorOf(last) : null };
}

/** The cursor of a row in (schedule, id) order. */
export const scheduleCursorOf = (row: { id: number; schedule: Date }) =>
  encodeCursor({ at: row.schedule.toISOString(), id: row.id });
