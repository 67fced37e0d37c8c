import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer, serverCommandArgs } from '../../../scripts/build-server.mjs';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * A free loopback port (free when asked: the caller binds it soon after), below the kernel's ephemeral range
 * (32768 and up). A port the kernel hands out for `listen(0)` comes from that range, which every outgoing
 * connection of the tests running beside this one draws from too: one took such a port between the asking
 * and the child's listen (EADDRINUSE in a clean-clone run).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port between 20000 and 32000');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export interface BuiltCheckout {
  /** The temporary checkout: its apps/server/dist holds the build, apps/web/dist a stand-in web app. */
  root: string;
  outdir: string;
  remove(): Promise<void>;
}

/**
 * The compiled server as `npm start` runs it, built into a temporary checkout that has no sources: the build
 * must not reach back into src/ (migrations, the web app's folder, the lazily loaded dictionaries).
 */
export async function buildCheckout(prefix = 'vetcall-compiled-'): Promise<BuiltCheckout> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  const outdir = path.join(root, 'apps/server/dist');
  await buildServer({ outdir, quiet: true });
  // Packages stay external: the copy finds them as a checkout would, in node_modules above it.
  await symlink(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  await mkdir(path.join(root, 'apps/web/dist'), { recursive: true });
  await writeFile(path.join(root, 'apps/web/dist/index.html'), '<!doctype html><title>built web app</title>\n');
  return { root, outdir, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface ServerProcess {
  process: ChildProcess;
  baseUrl: string;
  port: number;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves once GET /api/ready answers 200; throws with its output if it exits or takes too long. */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGTERM, then its exit code (null when a signal ended it). */
  stop(): Promise<number | null>;
}

/**
 * Spawns the compiled server of `checkout` on a free port of 127.0.0.1, with the environment cleared of the
 * settings the test process may carry (DATABASE_URL, REDIS_URL, SMTP_URL, WEB_DIST_DIR) and then `env`.
 */
export async function spawnServer(checkout: BuiltCheckout, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, serverCommandArgs(checkout.outdir), {
    cwd: path.join(checkout.root, 'apps/server'),
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: path.join(checkout.root, `data-${port}`),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      WEB_DIST_DIR: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return {
    process: child,
    baseUrl,
    port,
    output: () => output,
    async ready(timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the server on ${port} exited:\n${output}`);
        const ready = await fetch(`${baseUrl}/api/ready`).catch(() => undefined);
        if (ready?.ok) return;
        if (Date.now() > deadline) throw new Error(`the server on ${port} was not ready in time:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** spawnServer, answered once it is ready; a server that never gets ready is killed and its output thrown. */
export async function startServer(checkout: BuiltCheckout, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await spawnServer(checkout, env);
  try {
    await server.ready();
  } catch (error) {
    server.process.kill('SIGKILL');
    throw error;
  }
  return server;
}
