import { STATUS_CODES } from 'node:http';
import type { FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ErrorCode, FIELD_ERROR_CODES } from '@vetcall/shared/error-codes';
import { admittedTypesOf } from '../lib/route-access.ts';

/** The error codes a route answers, by HTTP status. */
export type ErrorAnswers = Partial<Record<number, readonly ErrorCode[]>>;

/** An answer whose body the handler writes itself (prebuilt text, an empty 304), so no `response` schema checks it. */
export interface RawResponse {
  description: string;
  /** The JSON body; none for an answer without one. */
  schema?: z.ZodType;
}

declare module 'fastify' {
  interface FastifySchema {
    /**
     * For the OpenAPI document only: the error codes the route answers beyond those its declaration implies
     * (impliedErrors: validation, bodies, sessions and access types).
     */
    errors?: ErrorAnswers;
    /** For the OpenAPI document only: the answers the handler writes itself, by status. */
    rawResponses?: Partial<Record<number, RawResponse>>;
  }
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type ResponseObject = Record<string, unknown>;

/** Methods whose requests carry a body, which Fastify parses (JSON by default) before the route's schema sees it. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BINARY = z.string().meta({ format: 'binary' });
const RETRY_AFTER = { type: 'integer', description: 'Seconds until the limit lets this request through again' };

/**
 * A stable operationId from the method and the path: `GET /api/users/customer/byemail/:email` is
 * `getUsersCustomerByemailByEmail`. Paths are unique per method, so the ids are unique too (a test checks that).
 */
function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'api')
    .flatMap((segment) =>
      [...segment.matchAll(/:(\w+)|[A-Za-z0-9]+/g)].flatMap(([word, param]) =>
        param === undefined ? [word] : ['by', ...param.split('_')],
      ),
    );
  return method.toLowerCase() + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/**
 * What every route answers by the way it is declared: 400 for input the guard or the schema refuses (control
 * characters in any path or query, so every route), a body's parse errors and limits, 401 without a session where
 * requireAuth runs, and 403 to the access types it does not admit.
 */
function impliedErrors(route: Pick<RouteOptions, 'method' | 'onRequest'>, schema: FastifySchema) {
  const takesBody = [route.method].flat().some((method) => BODY_METHODS.has(method));
  const admitted = admittedTypesOf(route.onRequest);
  const answers: ErrorAnswers = { 400: takesBody ? ['validation_failed', 'invalid_json'] : ['validation_failed'] };
  if (takesBody) Object.assign(answers, { 413: ['payload_too_large'], 415: ['unsupported_media_type'] });
  if (admitted || schema.security) answers[401] = ['unauthorized'];
  if (admitted && admitted.length > 0) answers[403] = ['forbidden'];
  return answers;
}

function mergeAnswers(...lists: ErrorAnswers[]): Map<number, Set<ErrorCode>> {
  const merged = new Map<number, Set<ErrorCode>>();
  for (const answers of lists) {
    for (const [status, codes] of Object.entries(answers)) {
      merged.set(Number(status), new Set([...(merged.get(Number(status)) ?? []), ...(codes ?? [])]));
    }
  }
  return merged;
}

/** Shared by every error answer, so the field codes are listed once in the document. */
export const OPENAPI_COMPONENT_SCHEMAS = {
  FieldErrors: {
    type: 'object' as const,
    description: 'The refused fields of the request, each with why (the web app shows validation.<code>)',
    additionalProperties: { type: 'string' as const, enum: [...FIELD_ERROR_CODES] },
  },
};

/** An error answer (plugins/error-handler.ts) listing the codes it can carry. */
function errorResponse(status: number, codes: ErrorCode[]): ResponseObject {
  const body = {
    type: 'object',
    required: ['error', 'message'],
    properties: {
      error: { type: 'string', enum: codes },
      message: { type: 'string' },
      fields: { $ref: '#/components/schemas/FieldErrors' },
    },
    additionalProperties: false,
  };
  return {
    description: `${STATUS_CODES[status]}: ${codes.join(', ')}`,
    content: { 'application/json': { schema: body } },
  };
}

/**
 * The swagger transform of the app: jsonSchemaTransform (zod to JSON Schema) over the route's own schema, plus
 * what an integrator needs that Fastify does not: an operationId, every error answer with its codes, the media
 * types of file answers (`produces`), and the answers a handler writes itself.
 */
export function describeOperation(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const { schema, url, route } = input;
  if (!schema || schema.hide) return jsonSchemaTransform(input);
  const { errors = {}, rawResponses = {}, ...declared } = schema;
  const method = [route.method].flat()[0] ?? 'GET';
  const answers = mergeAnswers(impliedErrors(route, schema), errors);
  const response: Record<string, unknown> = { ...(declared.response as Record<string, unknown> | undefined) };
  const bodiless: Record<string, ResponseObject> = {};

  for (const [status, raw] of Object.entries(rawResponses)) {
    if (raw?.schema)
      response[status] = { description: raw.description, content: { 'application/json': { schema: raw.schema } } };
    else if (raw) bodiless[status] = { description: raw.description, type: 'null' };
  }
  const produced = declared.produces ?? [];
  if (!('200' in response) && produced.length > 0) {
    response['200'] = {
      description: 'The file',
      content: Object.fromEntries(produced.map((type) => [type, { schema: BINARY }])),
    };
  }
  const transformed = jsonSchemaTransform({
    ...input,
    schema: {
      ...declared,
      operationId: declared.operationId ?? operationIdOf(method, url),
      // A route behind requireAuth takes the bearer token, whether or not it says so.
      ...(admittedTypesOf(route.onRequest) && !declared.security ? { security: [{ bearer: [] }] } : {}),
      response,
    },
  });
  const documented = transformed.schema.response as Record<string, ResponseObject>;
  Object.assign(documented, bodiless);
  for (const [status, codes] of answers) documented[status] ??= errorResponse(status, [...codes]);
  if (documented['429']) documented['429'] = { ...documented['429'], headers: { 'retry-after': RETRY_AFTER } };
  return transformed;
}
