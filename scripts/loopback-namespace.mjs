/**
 * A network namespace with only loopback (issue 8): the video journeys and the video benchmark run their
 * server and Chromium inside one, so no media packet can go to any address but 127.0.0.1 (or ::1).
 *
 * `unshare -n` makes the namespace (as root; otherwise `unshare -r -n`, when user namespaces are allowed),
 * `ip link set lo up` brings its only interface up, and the command runs inside with
 * VETCALL_LOOPBACK_NETNS=1. Nothing outside is reachable from there: no PostgreSQL, Redis or SMTP of the
 * machine, no registry, no DNS.
 */
import { spawn, spawnSync } from 'node:child_process';
import { constants, networkInterfaces } from 'node:os';

const MARKER = 'VETCALL_LOOPBACK_NETNS';
const INSIDE = 'ip link set lo up && exec "$@"';

/** @type {string[] | null | undefined} the unshare flags that work here; null: none; undefined: not probed yet. */
let unshareFlags;

/** @returns {string[] | null} */
function probeUnshareFlags() {
  if (unshareFlags !== undefined) return unshareFlags;
  unshareFlags = null;
  // Root: a plain network namespace. Otherwise an unprivileged user namespace mapping us to root in it.
  for (const flags of [['-n'], ['-r', '-n']]) {
    const probe = spawnSync('unshare', [...flags, '--', 'sh', '-c', INSIDE, 'sh', 'true'], { stdio: 'ignore' });
    if (probe.status === 0) {
      unshareFlags = flags;
      break;
    }
  }
  return unshareFlags;
}

/**
 * Whether this machine lets us make a loopback-only network namespace (`unshare` and `ip` present, and
 * root or user namespaces). Probed once, then cached.
 * @returns {boolean}
 */
export function canEnterLoopbackNamespace() {
  return probeUnshareFlags() !== null;
}

/**
 * Whether this process already runs inside such a namespace: started by {@link reexecInLoopbackNamespace}
 * (VETCALL_LOOPBACK_NETNS=1) and seeing no network interface but `lo`.
 * @returns {boolean}
 */
export function inLoopbackNamespace() {
  if (process.env[MARKER] !== '1') return false;
  const names = Object.keys(networkInterfaces());
  return names.length === 1 && names[0] === 'lo';
}

/**
 * The command and arguments that run `argv` inside a fresh loopback-only namespace, for callers that spawn
 * it themselves (to read its output, say). Throws when no namespace can be made here.
 * @param {readonly string[]} argv the program and its arguments
 * @returns {{ command: string; args: string[]; env: NodeJS.ProcessEnv }}
 */
export function loopbackNamespaceCommand(argv, env = process.env) {
  const flags = probeUnshareFlags();
  if (!flags) throw new Error('cannot create a network namespace here (unshare -n needs root or user namespaces)');
  return {
    command: 'unshare',
    args: [...flags, '--', 'sh', '-c', INSIDE, 'sh', ...argv],
    env: { ...env, [MARKER]: '1' },
  };
}

/**
 * Runs this script again (by default: the same Node executable and flags, script and arguments) inside a
 * fresh loopback-only namespace, with stdio inherited; resolves to its exit code. SIGINT and SIGTERM sent
 * to this process are passed on.
 * @param {readonly string[]} [argv] the program and its arguments
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<number>}
 */
export function reexecInLoopbackNamespace(
  argv = [process.execPath, ...process.execArgv, ...process.argv.slice(1)],
  env = process.env,
) {
  const { command, args, env: childEnv } = loopbackNamespaceCommand(argv, env);
  const child = spawn(command, args, { stdio: 'inherit', env: childEnv });
  /** @type {(signal: NodeJS.Signals) => void} */
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    const done = (/** @type {number} */ code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code);
    };
    child.on('error', () => done(1));
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 + constants.signals[signal] : 1)));
  });
}
