/**
 * The builds `npm start` runs from: the web app (apps/web/dist) and the compiled server (apps/server/dist), each
 * made again when missing or older than its sources. Used by scripts/start.mjs before every start, and by the
 * bench before it times a start, so a start it measures never includes a build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedSince } from './build-freshness.mjs';
import { buildServer, isServerBuildStale } from './build-server.mjs';

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

/** Builds what is stale; answers false when the web build failed (its output has said why). */
export async function ensureBuilds() {
  if (webBuildIsStale()) {
    console.log('Building the web app…');
    const build = spawnSync('npm', ['run', 'build', '-w', '@vetcall/web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) return false;
  }
  if (isServerBuildStale()) {
    console.log('Building the server…');
    await buildServer();
  }
  return true;
}
