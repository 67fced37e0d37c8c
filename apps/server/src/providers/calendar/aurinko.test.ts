import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeHttpServer,
  hang,
  hangAfterHeaders,
  sendJson,
  startFakeHttpServer,
} from '../../../test/fake-http-server.ts';
import { AURINKO_TIMEOUT_MS, verifyAurinkoAccountToken } from './aurinko.ts';
import { CalendarProviderUnavailable } from './calendar-link-provider.ts';

describe('verifyAurinkoAccountToken', () => {
  let aurinko: FakeHttpServer;
  beforeAll(async () => {
    aurinko = await startFakeHttpServer();
  });
  afterAll(async () => {
    await aurinko.close();
  });

  it('waits at most 5 s for Aurinko by default', () => {
    expect(AURINKO_TIMEOUT_MS).toBe(5000);
  });

  it('reads only the status: 200 valid, 401 and 403 invalid', async () => {
    for (const [status, verdict] of [
      [200, 'valid'],
      [401, 'invalid'],
      [403, 'invalid'],
    ] as const) {
      aurinko.handle = (_request, response) => sendJson(response, status, { id: 1 });
      expect(await verifyAurinkoAccountToken({ baseUrl: aurinko.baseUrl, timeoutMs: 500 }, 'tok')).toBe(verdict);
    }
  });

  it.each([
    ['never answers', hang],
    ['sends headers, then silence', hangAfterHeaders],
  ])('ends the call in time when Aurinko %s, without the token in the error', async (_name, handler) => {
    aurinko.handle = handler;
    const started = Date.now();
    const error = await verifyAurinkoAccountToken({ baseUrl: aurinko.baseUrl, timeoutMs: 150 }, 'secret-tok').catch(
      (caught: unknown) => caught,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(CalendarProviderUnavailable);
    expect((error as Error).message).toBe('Aurinko: no answer within 150 ms');
    expect((error as Error).message).not.toContain('secret-tok');
  });

  it('does not follow redirects (the bearer token must not travel elsewhere)', async () => {
    aurinko.handle = (_request, response) => {
      response.writeHead(302, { location: 'http://127.0.0.1:1/v1/account' });
      response.end();
    };
    await expect(verifyAurinkoAccountToken({ baseUrl: aurinko.baseUrl, timeoutMs: 500 }, 'tok')).rejects.toThrow(
      CalendarProviderUnavailable,
    );
  });
});
