import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { sendKept } from '../lib/json-answer.ts';
import { createPublicPages } from './public-pages.ts';

/** Source maps stay on disk for our own debugging; browsers get a 404 (issue 16: the app's 5 MB map was served). */
const isSourceMap = (pathname: string): boolean => pathname.endsWith('.map');
/** The build's manifest (.vite/manifest.json) is read by the server (plugins/public-pages.ts), not served. */
const isBuildRecord = (pathname: string): boolean => pathname.startsWith('/.vite/');

/**
 * Serves the built React app: hashed assets cached for a year, index.html for every client route
 * (never cached, so a deploy is picked up at once), JSON 404 for unknown /api paths and for source maps.
 * Assets go out gzip-compressed when the browser accepts it, from the .gz files the web build writes beside
 * them (apps/web/vite.config.ts), so no request pays for compression.
 */
export async function registerWebApp(app: FastifyInstance, config: Config): Promise<void> {
  const indexFile = path.join(config.webDistDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: config.webDistDir,
      index: false,
      // Routes only for the files that exist; every other path falls to the not-found handler below.
      wildcard: false,
      cacheControl: false,
      preCompressed: true,
      allowedPath: (pathname: string) => !isSourceMap(pathname) && !isBuildRecord(pathname),
      // @fastify/static 10 passes the Fastify reply here.
      setHeaders(reply: { header(name: string, value: string): unknown }, filePath: string) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const publicPages = hasBuild ? createPublicPages(config, app.log) : undefined;

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // A missing hashed asset must fail loudly, not turn into index.html served as JavaScript.
    const isApiOrAsset =
      pathname === '/api' ||
      pathname.startsWith('/api/') ||
      pathname.startsWith('/assets/') ||
      isSourceMap(pathname) ||
      isBuildRecord(pathname);
    const wantsPage = request.method === 'GET' && !isApiOrAsset;
    if (wantsPage && hasBuild) {
      void reply.header('cache-control', 'no-cache');
      const drawn = await publicPages?.pageFor(request, pathname);
      // The drawn page is in the language of the device's cookie: a cache must keep one per cookie.
      if (drawn) return sendKept(request, reply.header('vary', 'cookie').type('text/html; charset=utf-8'), drawn);
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ error: 'not_found', message: 'Not found.' });
  });
}
