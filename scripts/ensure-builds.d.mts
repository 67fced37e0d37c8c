/** Types of ensure-builds.mjs for the TypeScript that imports it (the bench). */
export function ensureBuilds(): Promise<boolean>;
