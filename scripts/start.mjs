#!/usr/bin/env node
/**
 * `npm start`: builds the web app and the server when a build is missing or older than its sources, then runs
 * the compiled server with plain node (which migrates the database and, outside production, seeds the demo
 * data). With both builds current, it only stats the files they were made from.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverCommandArgs } from './build-server.mjs';
import { ensureBuilds } from './ensure-builds.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (!(await ensureBuilds())) process.exit(1);

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
