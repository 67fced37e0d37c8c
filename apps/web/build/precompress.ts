import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
/** Below this a gzip header costs more than it saves. */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.gz` beside every text asset of the build, compressed once at the highest level; the server
 * sends it to browsers that accept gzip (apps/server/src/plugins/web-app.ts, @fastify/static preCompressed),
 * so no request pays for compression. Source maps are left alone: they are never served.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'vetcall-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(outDir, name);
          const content = await readFile(file);
          if (content.length < MIN_BYTES) return;
          await writeFile(`${file}.gz`, await gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }));
        }),
      );
    },
  };
}
