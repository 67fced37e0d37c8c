#!/usr/bin/env node
/**
 * `npm run test:e2e`: finds Chromium (CHROMIUM_PATH, else /usr/bin/chromium), gives the server a fresh
 * data directory, and runs the Playwright journeys. Nothing is downloaded.
 *
 * The whole run (server, fake postal provider, Playwright and Chromium) happens inside a network namespace
 * with only loopback (issue 8: no media packet of the video journeys may leave 127.0.0.1), made with
 * `unshare -n` when this machine allows it (root or user namespaces). Without it the journeys run on the
 * host network after a warning, and the video journey fails its own loopback check;
 * E2E_ALLOW_HOST_NETWORK=1 silences the warning.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  canEnterLoopbackNamespace,
  inLoopbackNamespace,
  reexecInLoopbackNamespace,
} from '../scripts/loopback-namespace.mjs';
import { startFakePostalProvider } from './support/fake-postal-provider.mjs';

if (!inLoopbackNamespace()) {
  if (canEnterLoopbackNamespace()) process.exit(await reexecInLoopbackNamespace());
  if (process.env.E2E_ALLOW_HOST_NETWORK !== '1') {
    console.warn(
      'Warning: cannot make a loopback-only network namespace here (`unshare -n` needs root or user namespaces); ' +
        'the journeys run on the host network and the video journey will fail its loopback check.',
    );
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
try {
  accessSync(chromium, constants.X_OK);
} catch {
  console.error(
    `Chromium not found at ${chromium}.\n` +
      "Install Debian's package (as root: apt-get update && apt-get install -y chromium),\n" +
      'or point CHROMIUM_PATH at a Chromium or Chrome executable.',
  );
  process.exit(1);
}

const builtIndex = path.join(here, '../apps/web/dist/index.html');
try {
  accessSync(builtIndex);
} catch {
  console.log('Building the web app and the server first…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: path.join(here, '..'), stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'vetcall-e2e-'));
const postalProvider = await startFakePostalProvider();
const child = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  cwd: here,
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium, E2E_DATA_DIR: dataDir, E2E_POSTAL_PT_URL: postalProvider.url },
});
const status = await new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
await postalProvider.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(status);
