/**
 * The two servers of `npm run bench`, each in its own process: the bare Fastify baseline and the application
 * started the way production starts it (`node scripts/start.mjs`). Both listen on 127.0.0.1 only. The
 * application's start-up time is from spawn to its first 200 on /api/ready; its memory is the resident set
 * of the real server process (start.mjs only launches it, so the deepest node descendant is measured).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { ENVIRONMENT_VARIABLES } from '../apps/server/src/config.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const POLL_MS = 50;

export interface RunningServer {
  base: string;
  process: ChildProcess;
  /** Stops the process (SIGTERM, then SIGKILL of its group after 15 s) and waits for it. */
  stop(): Promise<void>;
}

export interface RunningApp extends RunningServer {
  startupMs: number;
  /** Resident memory of the server process now, in MB. */
  residentMB(): number;
}

/** A free TCP port on loopback, as the kernel hands one out. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitFor200(url: string, child: ChildProcess, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${url}: the server exited (${child.exitCode ?? child.signalCode}); see ${logFile}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`${url}: not ready within ${timeoutMs / 1000} s; see ${logFile}`);
}

/** Servers still running: killed with their process group if the bench exits early (an error, Ctrl-C). */
const running = new Set<ChildProcess>();

/** SIGKILL to a child's whole group: start.mjs and the server it spawned (the child leads it, see `detached`). */
function killGroup(child: ChildProcess) {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

process.on('exit', () => running.forEach(killGroup));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const killer = setTimeout(() => killGroup(child), 15_000);
      await exited;
      clearTimeout(killer);
    }
    running.delete(child);
  };
}

/** Spawns `args` with node, output to `logFile`, in its own process group so it can be stopped whole. */
function spawnNode(args: string[], env: NodeJS.ProcessEnv, cwd: string, logFile: string): ChildProcess {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', log, log], detached: true });
  running.add(child);
  return child;
}

export async function startHelloWorld(logFile: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawnNode(
    [path.join(repoRoot, 'bench/hello-world-server.mjs')],
    { PATH: process.env.PATH, PORT: String(port) },
    repoRoot,
    logFile,
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor200(`${base}/`, child, 30_000, logFile);
  return { base, process: child, stop: stopper(child) };
}

/**
 * `node scripts/start.mjs` in production mode (a random APP_SECRET; no demo seeding, the bench seeded),
 * with the log level production has by default. The server's own settings are not inherited from the
 * bench's environment, so a developer's REDIS_URL or SMTP_URL cannot leak into the measurement.
 */
export async function startApp(database: Record<string, string>, logFile: string): Promise<RunningApp> {
  const port = await freePort();
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !(ENVIRONMENT_VARIABLES as string[]).includes(name)),
  );
  const env = {
    ...inherited,
    ...database,
    NODE_ENV: 'production',
    APP_SECRET: randomBytes(32).toString('hex'),
    // What production refuses to start without (config.ts); the bench reads, so no mail is sent and no one pays.
    PUBLIC_URL: 'https://vetcall.bench.invalid',
    SMTP_URL: 'smtp://127.0.0.1:9',
    PAYMENT_PROVIDER: 'builtin',
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  const started = performance.now();
  const child = spawnNode([path.join(repoRoot, 'scripts/start.mjs')], env, repoRoot, logFile);
  const base = `http://127.0.0.1:${port}`;
  // Generous: a start that has to build first takes minutes (the bench builds beforehand, see run.ts).
  await waitFor200(`${base}/api/ready`, child, 240_000, logFile);
  const startupMs = performance.now() - started;
  const serverPid = deepestNodeDescendant(child.pid!);
  return {
    base,
    process: child,
    startupMs,
    residentMB: () => residentMB(serverPid),
    stop: stopper(child),
  };
}

/** Parent of every process, from /proc/<pid>/stat (the field after the command, which may hold spaces). */
function parentsByPid(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // Exited meanwhile.
    }
  }
  return parents;
}

function isNode(pid: number): boolean {
  try {
    return realpathSync(readlinkSync(`/proc/${pid}/exe`)) === realpathSync(process.execPath);
  } catch {
    return false;
  }
}

/** The node process furthest below `root` (the server start.mjs launched), or `root` itself. */
export function deepestNodeDescendant(root: number): number {
  const parents = parentsByPid();
  let best = { pid: root, depth: 0 };
  const walk = (pid: number, depth: number) => {
    for (const [child, parent] of parents) {
      if (parent !== pid) continue;
      if (isNode(child) && depth + 1 > best.depth) best = { pid: child, depth: depth + 1 };
      walk(child, depth + 1);
    }
  };
  walk(root, 0);
  return best.pid;
}

/** VmRSS of a process, in MB. */
export function residentMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kilobytes / 1024) * 10) / 10;
}
