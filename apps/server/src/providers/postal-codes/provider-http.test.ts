import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeHttpServer,
  hang,
  hangAfterHeaders,
  sendJson,
  startFakeHttpServer,
  unusedBaseUrl,
} from '../../../test/fake-http-server.ts';
import { PROVIDER_TIMEOUT_MS, ProviderUnavailable, providerGet } from './provider-http.ts';

describe('providerGet', () => {
  let provider: FakeHttpServer;
  beforeAll(async () => {
    provider = await startFakeHttpServer();
  });
  afterAll(async () => {
    await provider.close();
  });

  it('keeps the 3 s limit of the issue as the default', () => {
    expect(PROVIDER_TIMEOUT_MS).toBe(3000);
  });

  it('returns the status and the parsed body', async () => {
    provider.handle = (_request, response) => sendJson(response, 404, {});
    const response = await providerGet('Test', `${provider.baseUrl}/x`, { timeoutMs: 500 });
    expect(response.status).toBe(404);
    expect(response.json()).toEqual({});
  });

  it('throws ProviderUnavailable when nothing listens', async () => {
    const error = await providerGet('Test', `${await unusedBaseUrl()}/x`, { timeoutMs: 500 }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error.message).toBe('Test: unreachable');
    expect(error.cause).toBeDefined();
  });

  it('counts the body in the timeout: headers then silence still fails in time', async () => {
    provider.handle = hangAfterHeaders;
    const started = Date.now();
    await expect(providerGet('Test', `${provider.baseUrl}/x`, { timeoutMs: 150 })).rejects.toThrow(
      'Test: no answer within 150 ms',
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("ends when the caller's signal aborts, before the timeout", async () => {
    provider.handle = hang;
    const controller = new AbortController();
    const call = providerGet('Test', `${provider.baseUrl}/x`, { signal: controller.signal, timeoutMs: 5000 });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(call).rejects.toThrow('Test: request aborted');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses an oversized answer', async () => {
    provider.handle = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(3 * 1024 * 1024) });
      response.write('[');
    };
    await expect(providerGet('Test', `${provider.baseUrl}/x`, { timeoutMs: 500 })).rejects.toThrow(/too large/);
  });
});
