// Types of build-server.mjs, for the TypeScript that imports it (its tests).

export const SERVER_DIST: string;

/** node's arguments that run the build in `outdir` (default SERVER_DIST) as `npm start` does. */
export function serverCommandArgs(outdir?: string): string[];

/** Whether the build in `outdir` is missing or older than a file it was made from. */
export function isServerBuildStale(outdir?: string): boolean;

/** Bundles the server into `outdir` (default SERVER_DIST) and records what it was made from. */
export function buildServer(options?: { outdir?: string; quiet?: boolean }): Promise<void>;
