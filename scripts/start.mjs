#!/usr/bin/env node
/**
 * `npm start`: builds the web app and the server when a build is missing or older than its sources, then runs
 * the compiled server with plain node (which migrates the database and, outside production, seeds the demo
 * data). With both builds current, it only stats the files they were made from.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedSince } from './build-freshness.mjs';
import { buildServer, isServerBuildStale, serverCommandArgs } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'apps/web/dist/index.html');
const webSources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'apps/web/build',
  'packages/shared/src',
].map((source) => path.join(root, source));

function webBuildIsStale() {
  if (!existsSync(builtIndex)) return true;
  return changedSince(
    statSync(builtIndex).mtimeMs,
    webSources.filter((source) => existsSync(source)),
  );
}

if (webBuildIsStale()) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@vetcall/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
if (isServerBuildStale()) {
  console.log('Building the server…');
  await buildServer();
}

// `npm run start:prod` (--production): the same start with NODE_ENV=production, which refuses the demo's
// defaults; so the checkout's ./data is not handed to it as if DATA_DIR had been chosen.
const production = process.argv.includes('--production') || process.env.NODE_ENV === 'production';
const env = { ...process.env, ...(production ? { NODE_ENV: 'production' } : {}) };
if (!production) env.DATA_DIR = process.env.DATA_DIR ?? path.join(root, 'data');

const server = spawn(process.execPath, serverCommandArgs(), {
  cwd: path.join(root, 'apps/server'),
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
