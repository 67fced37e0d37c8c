import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiErrorBody, ErrorCode } from '@vetcall/shared/error-codes';
import { fieldErrorsFromIssues } from '@vetcall/shared/schemas/fields';
import { AppError } from '../errors.ts';

const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The JSON body is empty.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The body is too large.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_json', message: 'Invalid content length.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'This content type is not accepted here.',
  },
};

/**
 * Every error leaves as `{ error, message, fields? }` with a stable code; 5xx answers never carry
 * internals (stack, SQL), which go to the log with the request id instead.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, body: ApiErrorBody) => reply.status(status).send(body);

    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error }, error.message);
      return send(error.statusCode, {
        error: error.code,
        message: error.message,
        ...(error.fields ? { fields: error.fields } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        path: issue.instancePath.split('/').filter(Boolean),
        message: issue.message ?? '',
        code: issue.keyword,
      }));
      return send(400, {
        error: 'validation_failed',
        message: `Invalid ${error.validationContext ?? 'request'}.`,
        fields: fieldErrorsFromIssues(issues),
      });
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return send(known.status, { error: known.code, message: known.message });
    if (error.statusCode === 429) {
      return send(429, { error: 'too_many_requests', message: 'Too many requests; try again later.' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(error.statusCode, {
        error: error.statusCode === 404 ? 'not_found' : 'validation_failed',
        message: 'The request could not be processed.',
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
    } else {
      request.log.error({ err: error }, 'unhandled error');
    }
    return send(500, { error: 'internal_error', message: 'Something went wrong on our side.' });
  });
}
