/**
 * How an error is written to the log (the logger's `err` serializer). Only fields that say what went wrong
 * and where are kept; none that repeat the data being written:
 *
 * - A database error (drizzle's DrizzleQueryError around the driver's DatabaseError, from pg or PGlite) keeps
 *   its SQLSTATE code and the constraint, table, column, schema, data type and routine it names. Its message
 *   is not kept: drizzle's ends with the statement's `params` (a customer's name and address, in the order
 *   they were inserted) and the driver's may quote a value ('invalid input syntax for type …: "…"'); nor is
 *   the driver's `detail` ('Key (email)=(ana@example.pt) already exists.') or `where`.
 * - Any other error keeps its type, message, code, status and stack, and its cause the same way; the other
 *   properties an error may carry (a request body, an SMTP command, a query) are left out.
 *
 * Stacks keep their frames only: the first line of a stack repeats the message.
 */
export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  statusCode?: number;
  constraint?: string;
  table?: string;
  column?: string;
  schema?: string;
  dataType?: string;
  routine?: string;
  cause?: LoggedError;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
/** The driver's error fields that name things in the schema, never values. */
const DATABASE_NAMES = ['constraint', 'table', 'column', 'schema', 'dataType', 'routine'] as const;
/** How deep a chain of causes is followed (a cycle must not loop). */
const MAX_CAUSES = 5;

type ErrorLike = Record<string, unknown> & { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown };

const isObject = (value: unknown): value is ErrorLike => typeof value === 'object' && value !== null;

/** The driver's error in the chain: it has a SQLSTATE and the fields PostgreSQL's error message carries. */
function databaseErrorIn(error: ErrorLike, depth = 0): ErrorLike | undefined {
  if (typeof error.code === 'string' && SQLSTATE.test(error.code) && ('severity' in error || 'routine' in error)) {
    return error;
  }
  return depth < MAX_CAUSES && isObject(error.cause) ? databaseErrorIn(error.cause, depth + 1) : undefined;
}

/** A drizzle query error carries the statement and its parameters. */
const isQueryError = (error: ErrorLike) => 'params' in error || 'query' in error;

function framesOf(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length > 0 ? frames.join('\n') : undefined;
}

function typeOf(error: ErrorLike): string {
  const name = error.constructor?.name;
  return typeof name === 'string' && name !== 'Object' ? name : typeof error.name === 'string' ? error.name : 'Error';
}

export function errorLogFields(value: unknown, depth = 0): LoggedError {
  if (!isObject(value)) return { type: typeof value, message: String(value) };
  const database = databaseErrorIn(value);
  if (database) {
    const names = Object.fromEntries(
      DATABASE_NAMES.flatMap((name) => (typeof database[name] === 'string' ? [[name, database[name]]] : [])),
    );
    return {
      type: typeOf(value),
      message: `database error ${String(database.code)}`,
      code: String(database.code),
      ...names,
      ...(framesOf(value.stack) ? { stack: framesOf(value.stack) } : {}),
    };
  }
  const logged: LoggedError = {
    type: typeOf(value),
    // A query error without a driver error below it (the connection failed) still ends with its params.
    message: isQueryError(value) ? 'database query failed' : String(value.message ?? ''),
  };
  const stack = framesOf(value.stack);
  if (stack) logged.stack = stack;
  if (typeof value.code === 'string' || typeof value.code === 'number') logged.code = String(value.code);
  if (typeof value.statusCode === 'number') logged.statusCode = value.statusCode;
  if (depth < MAX_CAUSES && value.cause !== undefined) logged.cause = errorLogFields(value.cause, depth + 1);
  return logged;
}
