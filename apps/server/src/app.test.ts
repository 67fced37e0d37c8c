import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@vetcall/shared/error-codes';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { PRODUCTION_ENV } from '../test/production-env.ts';
import { tinyWebBuild } from '../test/web-build.ts';

describe('HTTP hygiene of the whole app', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers 400 invalid_json for a malformed or empty JSON body', async () => {
    for (const payload of ['{"email": "a@b.test", ', '{email: 1}', 'null,']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/login/',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_json', message: expect.any(String) });
    }
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('invalid_json');
  });

  it('answers 415 unsupported_media_type for a body that is not JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: 'unsupported_media_type', message: expect.any(String) });
  });

  it('answers 413 payload_too_large for a JSON body over 1 MiB', async () => {
    const payload = JSON.stringify({ email: 'a@clinic.test', password: 'x'.repeat(1024 * 1024) });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'payload_too_large', message: expect.any(String) });
  });

  it('accepts a JSON body just under 1 MiB (it reaches validation)', async () => {
    const payload = JSON.stringify({ email: 'a@clinic.test', password: 'x'.repeat(1024 * 1024 - 100) });
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(1024 * 1024);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ password: 'too_long' });
  });

  it.each([
    ['GET', '/api/whatever'],
    ['POST', '/api/whatever/deeper?x=1'],
    ['GET', '/api'],
    ['DELETE', '/api/me'],
    ['GET', '/api/login/updatepassword'],
    ['GET', '/some/page'],
  ] as const)('answers a JSON 404 not_found for %s %s', async (method, url) => {
    const response = await t.app.inject({ method, url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('gives every 4xx answer a known error code and a message', async () => {
    const requests = [
      { method: 'GET', url: '/api/nothing-here' },
      { method: 'GET', url: '/api/me' },
      { method: 'GET', url: '/api/me', headers: { authorization: 'Bearer nope' } },
      { method: 'POST', url: '/api/login/', payload: {} },
      { method: 'POST', url: '/api/login/', payload: { email: 'ghost@clinic.test', password: 'whatever' } },
      { method: 'POST', url: '/api/login/', headers: { 'content-type': 'application/json' }, payload: '{' },
      { method: 'POST', url: '/api/login/', headers: { 'content-type': 'text/plain' }, payload: 'hi' },
      { method: 'POST', url: '/api/login/sendpasswordresetemail/fr', payload: { email: 'a@clinic.test' } },
      { method: 'POST', url: '/api/login/updatepassword', payload: { password: 'long enough', token: 'nope' } },
      { method: 'GET', url: '/api/translations/fr' },
      { method: 'GET', url: `/api/translations/${'x'.repeat(30)}` },
    ] as const;
    for (const request of requests) {
      const response = await t.app.inject(request);
      const label = `${request.method} ${request.url}`;
      expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, label).toBeLessThan(500);
      const body = response.json();
      expect(ERROR_CODES, label).toContain(body.error);
      expect(typeof body.message, label).toBe('string');
      expect(body.message.length, label).toBeGreaterThan(0);
      expect(
        Object.keys(body).every((key) => ['error', 'message', 'fields'].includes(key)),
        label,
      ).toBe(true);
    }
  });

  it('sends the JSON answer set of security headers on API answers and errors', async () => {
    const requests = [
      { url: '/api/health' },
      { url: '/api/nothing-here' },
      { url: '/api/translations/en' },
      { url: '/api/me' },
      { url: '/api/me', headers: { authorization: 'Bearer not-a-token' } },
    ];
    for (const request of requests) {
      const response = await t.app.inject({ method: 'GET', ...request });
      const label = `${request.url} ${response.statusCode}`;
      expect(response.headers['content-type'], label).toMatch(/^application\/json/);
      expect(response.headers['content-security-policy'], label).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-content-type-options'], label).toBe('nosniff');
      expect(response.headers['x-frame-options'], label).toBe('DENY');
      expect(response.headers['cross-origin-resource-policy'], label).toBe('same-origin');
      expect(response.headers['x-powered-by'], label).toBeUndefined();
      // Plain-HTTP PUBLIC_URL: no HSTS pinning.
      expect(response.headers['strict-transport-security'], label).toBeUndefined();
      // Only documents heed these (ADR 021).
      expect(response.headers['cross-origin-opener-policy'], label).toBeUndefined();
      expect(response.headers['x-dns-prefetch-control'], label).toBeUndefined();
    }
  });

  it('sends the full set of security headers on pages and files', async () => {
    const web = await tinyWebBuild();
    const pages = await buildTestApp({ env: { WEB_DIST_DIR: web.dir } });
    try {
      for (const url of ['/', '/customer', '/favicon.svg', '/assets/app-abc123.js']) {
        const response = await pages.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        const csp = response.headers['content-security-policy'];
        expect(csp, url).toContain("default-src 'self'");
        expect(csp, url).toContain("object-src 'none'");
        expect(csp, url).toContain("frame-ancestors 'self'");
        expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
        expect(response.headers['x-content-type-options'], url).toBe('nosniff');
        expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
        expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
        expect(response.headers['cross-origin-opener-policy'], url).toBe('same-origin');
        expect(response.headers['cross-origin-resource-policy'], url).toBe('same-origin');
        expect(response.headers['x-powered-by'], url).toBeUndefined();
        expect(response.headers['strict-transport-security'], url).toBeUndefined();
      }
    } finally {
      await pages.close();
      await web.dispose();
    }
  });

  it('serves the OpenAPI document with the login routes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toBe('VetCall API');
    const paths = Object.keys(document.paths);
    const reset = paths.find(
      (p) =>
        p === '/api/login/sendpasswordresetemail/{language}' || p === '/api/login/sendpasswordresetemail/:language',
    );
    expect(reset, paths.join(', ')).toBeDefined();
    expect(document.paths[reset!].post).toBeDefined();
    expect(paths).toEqual(
      expect.arrayContaining(['/api/login/updatepassword', '/api/me', '/api/logout', '/api/health']),
    );
    // The developer mail viewer is hidden from the documentation.
    expect(paths.some((p) => p.startsWith('/dev'))).toBe(false);
    const me = document.paths['/api/me'].get;
    expect(me.security).toEqual([{ bearer: [] }]);
  });
});

describe('HTTP hygiene over HTTPS', () => {
  it('pins HTTPS with HSTS on pages and API answers and upgrades insecure requests in production', async () => {
    const web = await tinyWebBuild();
    const t = await buildTestApp({
      env: { ...PRODUCTION_ENV, WEB_DIST_DIR: web.dir },
    });
    try {
      const page = await t.app.inject({ method: 'GET', url: '/' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(page.headers['content-security-policy']).toContain('upgrade-insecure-requests');
      const answer = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['strict-transport-security']).toBe(page.headers['strict-transport-security']);
    } finally {
      await t.close();
      await web.dispose();
    }
  });
});
