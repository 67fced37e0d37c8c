import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, LANGUAGE_COOKIE, type Locale, normalizeLocale } from '@vetcall/shared/locales';
import { MODES_BY_TYPE } from '@vetcall/shared/modes';
import { ROUTES } from '@vetcall/shared/routes';
import { clientConfigOf } from '../client-config.ts';
import { escapeHtml } from '../providers/mail/templates.ts';
import type { Config } from '../config.ts';
import { CATALOGS } from '../i18n.ts';
import { keepGzipped, type KeptBytes } from '../lib/json-answer.ts';

/**
 * The login and registration screens drawn on the server, so a first visit shows them at once instead of after
 * the app's JavaScript (issue 16: Lighthouse first paint; docs/decisions/025-public-pages-drawn-on-the-server.md).
 * The drawing comes from the web build's Node bundle (apps/web/dist-ssr, the web app's own components and
 * catalogs), made once per screen and locale; the app replaces it when it starts. Without that bundle, or if
 * drawing fails, the page is the plain index.html, as before.
 */

type Screen = 'Login' | 'Registration' | 'Customer';
interface Renderer {
  render(screen: Screen, locale: Locale): Promise<{ html: string; title: string }>;
}
interface RendererModule {
  createPublicPageRenderer(options: {
    catalogs: typeof CATALOGS;
    clientConfig: ReturnType<typeof clientConfigOf>;
  }): Promise<Renderer>;
}
/** The part of Vite's build manifest read here: each source's chunk, the chunks it imports and its CSS. */
type Manifest = Record<string, { file: string; name?: string; imports?: string[]; css?: string[] }>;

const SCREEN_PATHS = new Map<string, Screen>(
  ROUTES.filter((route) => ['Login', 'Registration', 'Customer'].includes(route.name)).map((route) => [
    route.path,
    route.name as Screen,
  ]),
);
/** The styles a screen needs besides the first screen's (linked by index.html): the registration's come lazily. */
const SCREEN_STYLES: Record<Screen, string[]> = {
  Login: [],
  Registration: ['src/app/all-styles.ts'],
  Customer: ['src/app/all-styles.ts'],
};

export interface PublicPages {
  /** The page for a GET of `pathname`, drawn; undefined when it is not one of them or cannot be drawn. */
  pageFor(request: FastifyRequest, pathname: string): Promise<KeptBytes | undefined>;
}

/** The locale a page is drawn in: ?lang= first, then the device's choice (its cookie), then pt — as the app picks. */
export function pageLocale(request: FastifyRequest): Locale {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = typeof query?.lang === 'string' ? normalizeLocale(query.lang) : undefined;
  if (fromQuery) return fromQuery;
  const cookie = (request.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === LANGUAGE_COOKIE)?.[1];
  return normalizeLocale(cookie ? decodeURIComponent(cookie) : undefined) ?? DEFAULT_LOCALE;
}

/** The CSS files of `source` and of every chunk it imports, in Vite's manifest. */
function stylesOf(manifest: Manifest, source: string, seen = new Set<string>()): string[] {
  if (seen.has(source)) return [];
  seen.add(source);
  const entry = manifest[source];
  if (!entry) return [];
  return [...(entry.css ?? []), ...(entry.imports ?? []).flatMap((imported) => stylesOf(manifest, imported, seen))];
}

/**
 * The drawing is painted before the app's code is fetched: index.html names the start chunk for every page
 * (apps/web/build/first-screen-chunk.ts), and on a drawn page that link goes. Fetched beside the page's styles,
 * its 146 KB held back their arrival on a slow link, and compiling it held back the first paint even on a fast
 * one (Lighthouse's simulated first paint counted the chunk: 2.2 s). The app's entry fetches it once the
 * drawing is painted (apps/web/src/main.tsx).
 */
function withoutStartPreload(index: string, manifest: Manifest): string {
  const start = Object.values(manifest).find((chunk) => chunk.name === 'start');
  if (!start) return index;
  return index.replace(`<link rel="modulepreload" crossorigin href="/${start.file}">`, '');
}

export function createPublicPages(config: Config, log: FastifyBaseLogger): PublicPages | undefined {
  const indexFile = path.join(config.webDistDir, 'index.html');
  const bundle = path.join(config.webDistDir, '..', 'dist-ssr', 'public-pages.js');
  if (!existsSync(indexFile) || !existsSync(bundle)) return undefined;

  let renderer: Promise<Renderer> | undefined;
  const loadRenderer = () =>
    (renderer ??= (import(pathToFileURL(bundle).href) as Promise<RendererModule>).then((module) =>
      module.createPublicPageRenderer({ catalogs: CATALOGS, clientConfig: clientConfigOf(config) }),
    ));
  const template = readFile(indexFile, 'utf8');
  const manifest = readFile(path.join(config.webDistDir, '.vite', 'manifest.json'), 'utf8')
    .then((text) => JSON.parse(text) as Manifest)
    .catch(() => ({}) as Manifest);

  const drawn = new Map<string, Promise<KeptBytes | undefined>>();
  async function draw(screen: Screen, locale: Locale): Promise<KeptBytes | undefined> {
    try {
      const [{ html, title }, index, built] = await Promise.all([
        (await loadRenderer()).render(screen, locale),
        template,
        manifest,
      ]);
      // After the page's own (the first screen's), in the order the app would add them; none twice.
      const styles = [...new Set(SCREEN_STYLES[screen].flatMap((source) => stylesOf(built, source)))]
        .filter((file) => !index.includes(`/${file}"`))
        .map((file) => `<link rel="stylesheet" crossorigin href="/${escapeHtml(file)}">`)
        .join('');
      const page = withoutStartPreload(index, built)
        .replace(/<html lang="[^"]*"/, `<html lang="${locale}"`)
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
        .replace('</head>', `${styles}</head>`)
        .replace('<div id="root"></div>', `<div id="root" data-prerendered="${screen}">${html}</div>`);
      // A template without the root to fill is not drawn into.
      if (!page.includes('data-prerendered')) return undefined;
      return await keepGzipped(page);
    } catch (error) {
      log.error({ err: error, screen, locale }, 'drawing a public page failed; serving the plain app');
      return undefined;
    }
  }

  return {
    async pageFor(request, pathname) {
      const screen = SCREEN_PATHS.get(pathname.length > 1 ? pathname.replace(/\/$/, '').toLowerCase() : pathname);
      if (!screen) return undefined;
      // The customer's home is drawn in its first mode (booking) only.
      const mode = (request.query as Record<string, unknown> | undefined)?.mode;
      if (screen === 'Customer' && mode !== undefined && mode !== MODES_BY_TYPE.customer[0]) return undefined;
      const locale = pageLocale(request);
      const key = `${screen}:${locale}`;
      let page = drawn.get(key);
      if (!page) drawn.set(key, (page = draw(screen, locale)));
      return page;
    },
  };
}
