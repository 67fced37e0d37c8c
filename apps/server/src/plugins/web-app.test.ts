import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';

const INDEX = '<!doctype html><title>VetCall</title><div id="root"></div>';
const SCRIPT = `console.log(${JSON.stringify('VetCall '.repeat(200))});\n//# sourceMappingURL=app-abc123.js.map\n`;

describe('the built web app', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    // A build as `vite build` leaves it: hashed assets with their hidden maps and the .gz beside each asset.
    webDist = await mkdtemp(path.join(tmpdir(), 'vetcall-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), INDEX);
    await writeFile(path.join(webDist, 'assets', 'app-abc123.js'), SCRIPT);
    await writeFile(path.join(webDist, 'assets', 'app-abc123.js.gz'), gzipSync(SCRIPT));
    await writeFile(path.join(webDist, 'assets', 'app-abc123.js.map'), '{"version":3,"sources":["secret.ts"]}');
    await writeFile(path.join(webDist, 'stray.js.map'), '{"version":3,"sources":["secret.ts"]}');
    t = await buildTestApp({ env: { WEB_DIST_DIR: webDist } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('never serves a source map, inside or outside /assets', async () => {
    for (const url of ['/assets/app-abc123.js.map', '/stray.js.map', '/assets/missing.js.map']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('secret.ts');
      expect(response.headers['content-type'], url).toMatch(/application\/json/);
    }
  });

  it('serves an asset gzip-compressed to a browser that accepts it, and plain to one that does not', async () => {
    const compressed = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['content-type']).toMatch(/javascript/);
    expect(compressed.headers.vary).toMatch(/accept-encoding/i);
    expect(compressed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(compressed.rawPayload).toString()).toBe(SCRIPT);

    const plain = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('still answers client routes with index.html and missing assets with 404', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/customer' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toBe(INDEX);
    expect((await t.app.inject({ method: 'GET', url: '/assets/gone-123.js' })).statusCode).toBe(404);
  });
});
