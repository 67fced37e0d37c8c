import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The module id under which Vite serves its preload helper to every dynamic import of a build. */
const VITE_PRELOAD_HELPER = '\0vite/preload-helper.js';
/** The helper's base path as written in the file, replaced by the build's. */
const BASE_LINE = "const BASE = '/';";
/** The helper's one import, relative to its file. */
const YIELD_IMPORT = "'../src/lib/yield-to-main.ts'";

/**
 * Serves build/stepwise-preload.js as the preload helper of the build, in place of Vite's: the same parallel
 * fetching, then the imported chunks evaluated one per task (docs/decisions/028-start-up-work-in-short-tasks.md).
 * Runs before Vite's own plugins, whose helper it replaces; the helper is plain JavaScript.
 */
export function stepwisePreload(): Plugin {
  let base = '/';
  return {
    name: 'vetcall-stepwise-preload',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      base = config.base;
    },
    load(id) {
      if (id !== VITE_PRELOAD_HELPER) return null;
      const source = readFileSync(new URL('./stepwise-preload.js', import.meta.url), 'utf8');
      for (const expected of [BASE_LINE, YIELD_IMPORT]) {
        if (!source.includes(expected)) throw new Error(`stepwise-preload.js no longer says ${expected}`);
      }
      // The helper's module has no directory of its own to resolve a relative import from.
      return source
        .replace(BASE_LINE, `const BASE = ${JSON.stringify(base)};`)
        .replace(YIELD_IMPORT, `'${fileURLToPath(new URL('../src/lib/yield-to-main.ts', import.meta.url))}'`);
    },
  };
}
