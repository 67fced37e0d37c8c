import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES } from '@vetcall/shared/error-codes';
import { LOCALES } from '@vetcall/shared/locales';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const BINARY = { schema: { type: 'string', format: 'binary' } };

/** Answers the route tests assert, so integrators find them in the document: [operation, status, error code]. */
const TESTED_ANSWERS: [string, number, string][] = [
  ['POST /api/login', 401, 'invalid_login_attempt'],
  ['POST /api/login', 429, 'too_many_requests'],
  ['POST /api/login/updatepassword', 400, 'invalid_or_expired_token'],
  ['POST /api/users/customer', 409, 'email_in_use'],
  ['DELETE /api/users/{user_id}', 403, 'customers_are_view_only'],
  ['DELETE /api/users/{user_id}', 409, 'cannot_remove_self'],
  ['DELETE /api/users/{user_id}', 409, 'last_manager'],
  ['PUT /api/vets/token/{vet_id}', 400, 'calendar_token_invalid'],
  ['PUT /api/vets/token/{vet_id}', 502, 'calendar_provider_unavailable'],
  ['POST /api/vets/calendar/builtin/grant/{vet_id}', 404, 'builtin_calendar_disabled'],
  ['POST /api/scheduling/holds', 409, 'slot_taken'],
  ['POST /api/scheduling/holds', 409, 'too_many_holds'],
  ['GET /api/appointments/quote', 409, 'no_product'],
  ['GET /api/appointments/quote', 400, 'invalid_access_code'],
  ['POST /api/appointments', 409, 'hold_not_found'],
  ['POST /api/appointments', 409, 'hold_expired'],
  ['POST /api/appointments', 413, 'files_too_large'],
  ['POST /api/appointments', 415, 'file_type_not_allowed'],
  ['POST /api/appointmentsaccesscodes', 409, 'access_code_exists'],
  ['POST /api/appointments/confirm/{hash}', 400, 'cant_activate_appointment'],
  ['POST /api/appointments/confirm/{hash}', 409, 'already_confirmed'],
  ['POST /api/appointments/confirm/{hash}', 409, 'slot_taken'],
  ['PUT /api/appointments/confirmpayment/{payment_hash}/{language}', 409, 'payment_not_completed'],
  ['GET /api/appointments/paymenthash/{payment_hash}', 404, 'invalid_payment_hash'],
  ['PUT /api/appointments/{appointment_id}', 409, 'error_updating_appointment'],
  ['POST /api/appointments/file/{appointment_id}', 409, 'error_creating_new_file'],
  ['DELETE /api/appointments/file/{file_id}', 409, 'error_deleting_file'],
  ['POST /api/appointments/{appointment_id}/cancel', 409, 'cancellation_closed'],
  ['POST /api/appointments/{appointment_id}/reschedule', 409, 'reschedule_closed'],
  ['POST /api/appointments/{appointment_id}/complete', 409, 'completion_too_early'],
  ['POST /api/payment/checkout/{payment_hash}/pay', 402, 'card_declined'],
  ['POST /api/payment/{locale}', 409, 'payment_closed'],
  ['POST /api/users/image/{user_id}', 400, 'error_changing_user_image'],
  ['GET /api/appointments/pin/{pin}', 404, 'pin_not_found'],
  ['GET /api/appointments/pin/{pin}', 409, 'room_not_open'],
  ['GET /api/postalcodes/{country}/{code}', 503, 'service_unavailable'],
  ['GET /api/ready', 503, 'service_unavailable'],
  ['GET /api/translations/{lang}', 404, 'not_found'],
];

interface Operation {
  key: string;
  operation: OpenAPIV3.OperationObject;
}

function operationsOf(document: OpenAPIV3.Document): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item?.[method]).map((method) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation: item![method]!,
    })),
  );
}

const responseOf = (operation: OpenAPIV3.OperationObject, status: number | string) =>
  operation.responses[status] as OpenAPIV3.ResponseObject | undefined;

/** The codes an error answer lists in its JSON body's `error`. */
function errorCodes(operation: OpenAPIV3.OperationObject, status: number | string): unknown[] {
  const body = responseOf(operation, status)?.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
  return (body?.properties?.error as OpenAPIV3.SchemaObject | undefined)?.enum ?? [];
}

describe('the OpenAPI document for integrators', () => {
  let t: TestApp;
  let document: OpenAPIV3.Document;
  let operations: Operation[];
  const find = (key: string) => operations.find((candidate) => candidate.key === key)?.operation;

  beforeAll(async () => {
    t = await buildTestApp();
    document = t.app.swagger() as OpenAPIV3.Document;
    operations = operationsOf(document);
  });
  afterAll(async () => {
    await t.close();
  });

  it('passes a maintained OpenAPI validator (@apidevtools/swagger-parser)', async () => {
    expect(operations.length).toBeGreaterThan(90);
    // The validator resolves $refs in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('gives every operation a unique camelCase operationId', () => {
    const missing = operations.filter(({ operation }) => !operation.operationId).map(({ key }) => key);
    expect(missing).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^(get|put|post|delete|patch)[A-Z][A-Za-z0-9]*$/);
    expect(find('GET /api/users/customer/byemail/{email}')?.operationId).toBe('getUsersCustomerByemailByEmail');
    expect(find('POST /api/login')?.operationId).toBe('postLogin');
  });

  it('lists the 4xx answers of every operation, each as the error body with its codes', () => {
    const without4xx = operations.filter(
      ({ operation }) => !Object.keys(operation.responses).some((s) => /^4/.test(s)),
    );
    expect(without4xx.map(({ key }) => key)).toEqual([]);
    for (const { key, operation } of operations) {
      for (const status of Object.keys(operation.responses).filter((s) => /^[45]/.test(s))) {
        const codes = errorCodes(operation, status);
        expect(codes.length, `${key} ${status}`).toBeGreaterThan(0);
        for (const code of codes) expect(ERROR_CODES as readonly unknown[], `${key} ${status}`).toContain(code);
      }
    }
  });

  it('lists what every route answers by its declaration: bad input, bodies, sessions and access types', () => {
    for (const { key, operation } of operations) {
      expect(errorCodes(operation, 400), key).toContain('validation_failed');
      if (/^(POST|PUT|PATCH|DELETE) /.test(key)) {
        expect(errorCodes(operation, 413), key).toContain('payload_too_large');
        expect(errorCodes(operation, 415), key).toContain('unsupported_media_type');
      }
      if (operation.security) expect(errorCodes(operation, 401), key).toContain('unauthorized');
    }
    // Managers only, a session of anyone else is 403; any session may read /api/me.
    expect(errorCodes(find('GET /api/exports/customers')!, 403)).toContain('forbidden');
    expect(errorCodes(find('GET /api/me')!, 401)).toEqual(['unauthorized']);
    expect(responseOf(find('GET /api/me')!, 403)).toBeUndefined();
    // Public routes ask for no session.
    expect(responseOf(find('GET /api/health')!, 401)).toBeUndefined();
    expect(find('GET /api/health')?.security).toBeUndefined();
  });

  it.each(TESTED_ANSWERS)('%s lists %i %s', (key, status, code) => {
    const operation = find(key);
    expect(operation, key).toBeDefined();
    expect(errorCodes(operation!, status)).toContain(code);
  });

  it('tells how long to wait on a 429', () => {
    expect(responseOf(find('POST /api/login')!, 429)?.headers?.['retry-after']).toMatchObject({
      schema: { type: 'integer' },
    });
  });

  it('gives every file answer its media types, as binary', () => {
    for (const list of ['customers', 'vets', 'managers', 'vets-availability', 'appointments']) {
      expect(responseOf(find(`GET /api/exports/${list}`)!, 200)?.content, list).toEqual({ [XLSX]: BINARY });
    }
    expect(responseOf(find('GET /api/users/image/{user_id}')!, 200)?.content).toEqual({
      'image/webp': BINARY,
      'image/svg+xml': BINARY,
    });
    expect(responseOf(find('GET /api/users/image/{user_id}')!, 304)).toBeDefined();
    expect(responseOf(find('GET /api/appointments/download-file.php')!, 200)?.content).toEqual({
      'application/octet-stream': BINARY,
    });
    expect(Object.keys(responseOf(find('GET /api/calendar/feed/{token}.ics')!, 200)?.content ?? {})).toEqual([
      'text/calendar',
    ]);
  });

  it('describes the catalog /api/translations/{lang} answers, which the real catalogs match', async () => {
    const operation = find('GET /api/translations/{lang}')!;
    const schema = responseOf(operation, 200)?.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
    expect(schema).toMatchObject({ type: 'object', additionalProperties: { type: 'object' } });
    expect(responseOf(operation, 304)).toBeDefined();
    const documented = z.fromJSONSchema(schema as never);
    for (const lang of LOCALES) {
      const response = await t.app.inject({ method: 'GET', url: `/api/translations/${lang}` });
      expect(documented.safeParse(response.json()).success, lang).toBe(true);
    }
    expect(documented.safeParse({ common: { save: 1 } }).success).toBe(false);
  });

  it('documents a success answer for every operation', () => {
    const without = operations.filter(
      ({ operation }) => !Object.keys(operation.responses).some((s) => /^[23]/.test(s)),
    );
    expect(without.map(({ key }) => key)).toEqual([]);
  });
});
