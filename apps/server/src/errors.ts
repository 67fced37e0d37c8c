import type { ErrorCode, FieldErrorCode } from '@vetcall/shared/error-codes';

const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  validation_failed: 'The request has invalid fields.',
  unauthorized: 'Authentication is required.',
  forbidden: 'You are not allowed to do this.',
  not_found: 'Not found.',
  too_many_requests: 'Too many requests; try again later.',
  invalid_login_attempt: 'Invalid email or password.',
  invalid_or_expired_token: 'The link is invalid or has expired.',
};

/** The one error type of the API: a stable code, an HTTP status and optional per-field codes. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly fields?: Record<string, FieldErrorCode>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    statusCode: number,
    options: {
      message?: string;
      fields?: Record<string, FieldErrorCode>;
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(options.message ?? DEFAULT_MESSAGES[code] ?? code.replaceAll('_', ' '), { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.statusCode = statusCode;
    this.fields = options.fields;
    this.headers = options.headers;
  }
}

export const unauthorized = () => new AppError('unauthorized', 401);
export const forbidden = () => new AppError('forbidden', 403);
export const notFound = () => new AppError('not_found', 404);

/** The email belongs to someone else (docs/product-rules.md#validation: 'email in use'). */
export const emailInUse = () => new AppError('email_in_use', 409, { fields: { email: 'taken' } });
