import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';

const INDEX =
  '<!doctype html><html lang="pt" data-mantine-color-scheme="light"><head><title>VetCall</title>' +
  '<link rel="stylesheet" crossorigin href="/assets/entry-1.css">' +
  '<link rel="modulepreload" crossorigin href="/assets/start-1.js"></head><body><div id="root"></div></body></html>';

/** Vite's manifest: the lazy styles module imports a chunk that has CSS too, and the entry's CSS, already linked. */
const MANIFEST = {
  'src/main.tsx': { file: 'assets/index-1.js', css: ['assets/entry-1.css'] },
  'src/app/all-styles.ts': { file: 'assets/all-styles-1.js', imports: ['_shared-1.js', 'src/main.tsx'] },
  '_shared-1.js': { file: 'assets/shared-1.js', css: ['assets/screens-1.css'] },
  '_start-1.js': { file: 'assets/start-1.js', name: 'start', imports: ['src/main.tsx'] },
};

/**
 * A stand-in for the web build's Node bundle (apps/web/dist-ssr/public-pages.js): it draws what it was given
 * (a text of the catalog, the client configuration's website), counts its drawings, and fails for pt-BR's
 * registration, as a broken bundle would.
 */
const RENDERER = `
globalThis.publicPageDrawings = 0;
export async function createPublicPageRenderer({ catalogs, clientConfig }) {
  return {
    async render(screen, locale) {
      if (screen === 'Registration' && locale === 'pt-BR') throw new Error('broken drawing');
      globalThis.publicPageDrawings += 1;
      return {
        html: '<main><h1>' + catalogs[locale].login.heading + '</h1><a href="' + clientConfig.website_url + '">' + screen + '</a></main>',
        title: screen + ' <' + locale + '>',
      };
    },
  };
}
`;

const drawings = () => (globalThis as { publicPageDrawings?: number }).publicPageDrawings ?? 0;

describe('the login, registration and customer screens drawn on the server', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'vetcall-public-pages-'));
    const webDist = path.join(root, 'dist');
    await mkdir(path.join(webDist, '.vite'), { recursive: true });
    await mkdir(path.join(root, 'dist-ssr'));
    await writeFile(path.join(webDist, 'index.html'), INDEX);
    await writeFile(path.join(webDist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    await writeFile(path.join(root, 'dist-ssr', 'public-pages.js'), RENDERER);
    t = await buildTestApp({ env: { WEB_DIST_DIR: webDist, WEBSITE_URL: 'https://clinic.example' } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(root, { recursive: true, force: true });
  });

  const page = (url: string, cookie?: string, encodings?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { ...(cookie ? { cookie } : {}), ...(encodings ? { 'accept-encoding': encodings } : {}) },
    });

  it('serves / drawn in the default language with the real catalog and client configuration', async () => {
    const response = await page('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.vary).toMatch(/cookie/i);
    expect(response.body).toContain('<html lang="pt" data-mantine-color-scheme="light">');
    expect(response.body).toContain('<title>Login &lt;pt&gt;</title>');
    expect(response.body).toContain(
      '<div id="root" data-prerendered="Login"><main><h1>Bem-vindo ao VetCall</h1><a href="https://clinic.example">Login</a></main></div>',
    );
  });

  it('draws in ?lang= first, then in the cookie of the device choice, else in pt', async () => {
    expect((await page('/?lang=en', 'vetcall_lang=pt-BR')).body).toContain('<html lang="en"');
    const fromCookie = await page('/', 'other=1; vetcall_lang=pt-BR');
    expect(fromCookie.body).toContain('<html lang="pt-BR"');
    expect(fromCookie.body).toContain('<title>Login &lt;pt-BR&gt;</title>');
    expect((await page('/', 'vetcall_lang=xx')).body).toContain('<html lang="pt"');
    expect((await page('/?lang=xx')).body).toContain('<html lang="pt"');
  });

  it('sends the drawn page gzipped to a browser that takes gzip, the same page', async () => {
    const plain = await page('/?lang=en');
    const gzipped = await page('/?lang=en', undefined, 'gzip, deflate, br, zstd');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzipped.rawPayload).toString('utf8')).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((await page('/?lang=en', undefined, 'gzip;q=0')).body).toBe(plain.body);
  });

  it('does not name the start chunk on a drawn page, which fetches it once painted; other pages do', async () => {
    expect((await page('/?lang=en')).body).not.toContain('start-1.js');
    expect((await page('/registration?lang=en')).body).not.toContain('start-1.js');
    expect((await page('/vet')).body).toContain('<link rel="modulepreload" crossorigin href="/assets/start-1.js">');
  });

  it('links the styles of the registration screen once, after the page’s own', async () => {
    const response = await page('/registration/?lang=en');
    expect(response.body).toContain('data-prerendered="Registration"');
    expect(response.body).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/entry-1.css">' +
        '<link rel="stylesheet" crossorigin href="/assets/screens-1.css"></head>',
    );
    expect(response.body.match(/entry-1\.css/g)).toHaveLength(1);
    expect((await page('/login')).body).not.toContain('data-prerendered');
  });

  it('draws each screen once per language', async () => {
    await page('/?lang=en');
    const before = drawings();
    for (let i = 0; i < 3; i += 1) {
      await page('/?lang=en');
      await page('/registration?lang=en');
    }
    expect(drawings()).toBe(before);
  });

  it('draws the customer home in its booking mode only, with the screens’ styles', async () => {
    for (const url of ['/customer', '/customer?mode=appointment_req&lang=en']) {
      const response = await page(url);
      expect(response.body).toContain('data-prerendered="Customer"');
      expect(response.body).toContain('<link rel="stylesheet" crossorigin href="/assets/screens-1.css"></head>');
    }
    expect((await page('/customer?mode=appointments')).body).toBe(INDEX);
  });

  it('serves the plain app for other pages, and when drawing fails', async () => {
    expect((await page('/vet')).body).toBe(INDEX);
    expect((await page('/customerdata')).body).toBe(INDEX);
    const failed = await page('/registration?lang=pt-BR');
    expect(failed.statusCode).toBe(200);
    expect(failed.body).toBe(INDEX);
  });

  it('never serves the build manifest', async () => {
    const response = await page('/.vite/manifest.json');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('all-styles');
  });
});
