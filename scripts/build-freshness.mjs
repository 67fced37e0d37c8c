/**
 * Whether a build is older than what it was made from, checked on every `npm start`, so it only stats files:
 * a build that must be remade is found in milliseconds, and an up-to-date one costs nothing more.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The newest modification time in `target`: the file's, or a directory's and everything under it. */
export function newestModification(target) {
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  // A directory's own time changes when an entry is added, removed or renamed.
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestModification(path.join(target, entry)));
  return newest;
}

/** True when one of `inputs` (files or directories) was modified after `builtAt`, or no longer exists. */
export function changedSince(builtAt, inputs) {
  return inputs.some((input) => {
    try {
      return newestModification(input) > builtAt;
    } catch {
      return true;
    }
  });
}

/**
 * Records what a build was made from, once it is complete. `startedAt` is taken before the build read its
 * sources, so a file saved while it ran still counts as newer. Paths are kept relative to the record, so a
 * checkout moved elsewhere keeps its build.
 */
export function writeBuildInputs(file, { startedAt, inputs }) {
  const relative = [...new Set(inputs.map((input) => path.relative(path.dirname(file), input)))].sort();
  writeFileSync(file, `${JSON.stringify({ startedAt, inputs: relative }, null, 2)}\n`);
}

/** A build recorded by writeBuildInputs is stale when that record is missing or unreadable, or an input changed. */
export function isRecordedBuildStale(file) {
  let record;
  try {
    record = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return true;
  }
  if (typeof record?.startedAt !== 'number' || !Array.isArray(record.inputs)) return true;
  return changedSince(
    record.startedAt,
    record.inputs.map((input) => path.resolve(path.dirname(file), input)),
  );
}
