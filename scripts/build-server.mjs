#!/usr/bin/env node
/**
 * Builds the server to JavaScript in apps/server/dist, so that `npm start` runs plain `node`, without tsx's
 * loader and its transform of every module at each start (docs/decisions/017-compiled-server-and-lean-start.md).
 *
 * One esbuild bundle per entry (main.js, db-cli.js). The server's sources and @vetcall/shared (whose package
 * exports .ts files, which plain node cannot load) are inlined; every other package stays external and is
 * loaded from node_modules, as under tsx. Chunks are split so that a module imported dynamically (the password
 * dictionaries) brings in its packages only when it is first imported. Source maps let
 * `node --enable-source-maps` print stack traces with the .ts files and lines.
 *
 * `node scripts/build-server.mjs [--if-stale]`: with --if-stale, builds only when the build is missing or older
 * than one of the files it was made from.
 */
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRecordedBuildStale, writeBuildInputs } from './build-freshness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverRoot = path.join(root, 'apps/server');
export const SERVER_DIST = path.join(serverRoot, 'dist');
/** Written last, so its presence means a complete build; it lists the files the build was made from. */
const INPUTS_RECORD = 'build-inputs.json';
const MIGRATIONS = path.join(serverRoot, 'src/db/migrations');
/** What the build depends on besides the modules esbuild bundles: the migrations it copies, and these scripts. */
const EXTRA_INPUTS = [MIGRATIONS, fileURLToPath(import.meta.url), path.join(root, 'scripts/build-freshness.mjs')];

/** Keeps every package external except the workspace's own, whose sources are TypeScript. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@vetcall/') ? undefined : { path: args.path, external: true },
    );
  },
};

/** How `npm start` runs a build: plain node, with stack traces mapped back to the .ts sources. */
export function serverCommandArgs(outdir = SERVER_DIST) {
  return ['--enable-source-maps', path.join(outdir, 'main.js')];
}

export function isServerBuildStale(outdir = SERVER_DIST) {
  return isRecordedBuildStale(path.join(outdir, INPUTS_RECORD));
}

export async function buildServer({ outdir = SERVER_DIST, quiet = false } = {}) {
  const startedAt = Date.now();
  // A build tool: imported only when a build runs, never by the server.
  const esbuild = await import('esbuild');
  await rm(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: serverRoot,
    entryPoints: { main: 'src/main.ts', 'db-cli': 'src/db-cli.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: 'linked',
    // Beside the entries: modules that find files next to themselves (import.meta.dirname) see dist/ in any chunk.
    chunkNames: '[name]-[hash]',
    metafile: true,
    logLevel: quiet ? 'error' : 'warning',
    plugins: [externalPackages],
  });
  // db/client.ts finds the migrations next to itself (import.meta.dirname), which in the bundle is dist/.
  await cp(MIGRATIONS, path.join(outdir, 'migrations'), { recursive: true });
  const sources = Object.keys(result.metafile.inputs).map((input) => path.resolve(serverRoot, input));
  writeBuildInputs(path.join(outdir, INPUTS_RECORD), { startedAt, inputs: [...sources, ...EXTRA_INPUTS] });
  if (!quiet) {
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    console.log(`Server built to ${path.relative(root, outdir)} from ${sources.length} source files in ${seconds} s`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--if-stale') || isServerBuildStale()) await buildServer();
}
