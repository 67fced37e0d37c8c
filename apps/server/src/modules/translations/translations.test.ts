import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '@vetcall/shared/i18n/en.json' with { type: 'json' };
import pt from '@vetcall/shared/i18n/pt.json' with { type: 'json' };
import ptBR from '@vetcall/shared/i18n/pt-BR.json' with { type: 'json' };
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';

describe('GET /api/translations/{lang}', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it.each([
    ['en', en, 'Log in'],
    ['pt', pt, 'Iniciar sessão'],
    ['pt-BR', ptBR, 'Entrar'],
  ] as const)(
    'serves the %s catalog with an ETag, then 304 when it has not changed',
    async (lang, catalog, submitLabel) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/translations/${lang}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual(catalog);
      expect(response.json().login.submit).toBe(submitLabel);
      const etag = response.headers.etag;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(response.headers['cache-control']).toBe('no-cache');

      const again = await t.app.inject({
        method: 'GET',
        url: `/api/translations/${lang}`,
        headers: { 'if-none-match': etag as string },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);

      const stale = await t.app.inject({
        method: 'GET',
        url: `/api/translations/${lang}`,
        headers: { 'if-none-match': '"old"' },
      });
      expect(stale.statusCode).toBe(200);
      expect(stale.json()).toEqual(catalog);
    },
  );

  it('gives each locale its own ETag', async () => {
    const etags = new Set<string>();
    for (const lang of ['en', 'pt', 'pt-BR']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/translations/${lang}` });
      etags.add(response.headers.etag as string);
    }
    expect(etags.size).toBe(3);
    // The ETag of one locale does not validate another.
    const en = await t.app.inject({ method: 'GET', url: '/api/translations/en' });
    const cross = await t.app.inject({
      method: 'GET',
      url: '/api/translations/pt',
      headers: { 'if-none-match': en.headers.etag as string },
    });
    expect(cross.statusCode).toBe(200);
  });

  it.each(['fr', 'de-DE', 'xx'])('answers 404 not_found for %s', async (lang) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/translations/${lang}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: expect.any(String) });
  });
});

describe('catalogs over the wire', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('go gzip-compressed to a browser that takes gzip, and plain to one that does not', async () => {
    const url = '/api/translations/pt';
    const gzipped = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('accept-encoding');
    expect(gzipped.rawPayload.length).toBeLessThan(JSON.stringify(pt).length / 2);
    expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString('utf8'))).toEqual(pt);

    for (const refusing of [undefined, 'identity', 'br', 'gzip;q=0', '*;q=0']) {
      const plain = await t.app.inject({
        method: 'GET',
        url,
        headers: refusing ? { 'accept-encoding': refusing } : {},
      });
      expect(plain.headers['content-encoding'], refusing).toBeUndefined();
      expect(plain.json(), refusing).toEqual(pt);
    }
  });
});
