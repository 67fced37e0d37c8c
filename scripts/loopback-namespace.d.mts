// Types of loopback-namespace.mjs, for the TypeScript that imports it (bench/).

/** Whether `unshare -n` (as root, or `-r -n` with user namespaces) works here; probed once. */
export function canEnterLoopbackNamespace(): boolean;

/** Whether this process already runs inside a loopback-only namespace made by this module. */
export function inLoopbackNamespace(): boolean;

/** The command that runs `argv` inside a fresh loopback-only namespace (throws when none can be made). */
export function loopbackNamespaceCommand(
  argv: readonly string[],
  env?: NodeJS.ProcessEnv,
): { command: string; args: string[]; env: NodeJS.ProcessEnv };

/** Runs `argv` (default: this script again) inside a fresh loopback-only namespace; resolves to its exit code. */
export function reexecInLoopbackNamespace(argv?: readonly string[], env?: NodeJS.ProcessEnv): Promise<number>;
