import { describe, expect, it, vi } from 'vitest';
import { ApiError, parseApiError } from './api-client';

describe('parseApiError', () => {
  it("keeps the API's code, message and field codes", () => {
    const body = JSON.stringify({ error: 'email_in_use', message: 'Taken', fields: { email: 'taken' } });
    const error = parseApiError(409, 'Conflict', body);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'email_in_use', message: 'Taken', fields: { email: 'taken' } });
  });

  it("picks the code from the status when the body is not the API's (a proxy or crash page)", () => {
    expect(parseApiError(413, 'Payload Too Large', '<html>proxy</html>')).toMatchObject({
      code: 'files_too_large',
      message: 'Payload Too Large',
      fields: {},
    });
    expect(parseApiError(502, 'Bad Gateway', '').code).toBe('internal_error');
    expect(parseApiError(429, '', 'null').code).toBe('too_many_requests');
    expect(parseApiError(400, '', '{}').code).toBe('validation_failed');
  });

  it('keeps a 429’s Retry-After, in seconds or as a date', () => {
    const body = JSON.stringify({ error: 'too_many_requests', message: 'x' });
    expect(parseApiError(429, '', body, '540').retryAfterSeconds).toBe(540);
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-03-04T10:00:00Z'));
    try {
      expect(parseApiError(429, '', body, 'Mon, 04 Mar 2030 10:05:00 GMT').retryAfterSeconds).toBe(300);
    } finally {
      vi.useRealTimers();
    }
    expect(parseApiError(429, '', body).retryAfterSeconds).toBeUndefined();
    expect(parseApiError(429, '', body, 'soon').retryAfterSeconds).toBeUndefined();
  });
});
