// Types of build-freshness.mjs, for the TypeScript that imports it (its tests).

export function newestModification(target: string): number;

export function changedSince(builtAt: number, inputs: readonly string[]): boolean;

export function writeBuildInputs(file: string, record: { startedAt: number; inputs: readonly string[] }): void;

export function isRecordedBuildStale(file: string): boolean;
