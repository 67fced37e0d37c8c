// @ts-check
/**
 * The preload helper of every dynamic import in the build, in place of Vite's (build/stepwise-preload-plugin.ts
 * puts it there; docs/decisions/028-start-up-work-in-short-tasks.md). Like Vite's, it fetches a chunk and the
 * chunks and styles it imports in parallel (<link rel="modulepreload"> and stylesheets), then imports the chunk.
 * Unlike it, once they have arrived it evaluates the imported chunks one at a time, deepest first, and lets the
 * browser run other work between two of them: a browser evaluates a chunk with everything it imports in one
 * task, which for a screen with its libraries and form schemas came to 40–70 ms on this machine — on a slow
 * phone four times that, time in which the page takes no input (Lighthouse's total blocking time).
 *
 * Plain JavaScript: it is loaded as Vite's own helper is, without a TypeScript step of its own.
 */

import { yieldToMain } from '../src/lib/yield-to-main.ts';

/** The build's base path: the plugin writes the configured one here. */
const BASE = '/';

/** @type {Record<string, Promise<void> | undefined>} */
const seen = {};
/** Chunks this helper has evaluated already, so a second screen does not wait a task for each again. */
const evaluated = new Set();
/** An evaluation shorter than this is not worth giving the browser a turn for. */
const YIELD_AFTER_MS = 2;
/** Links added in one task (see preloadAll). */
const LINKS_PER_TASK = 4;

/**
 * @param {string} href
 * @param {() => Promise<unknown> | undefined} preload
 */
function preloadOnce(href, preload) {
  if (href in seen) return seen[href];
  const promise = preload();
  if (!promise) {
    seen[href] = undefined;
    return undefined;
  }
  const settled = promise.then(
    () => {
      seen[href] = undefined;
    },
    (error) => {
      seen[href] = undefined;
      throw error;
    },
  );
  seen[href] = settled;
  return settled;
}

/**
 * @param {string} href
 * @param {boolean} isCss
 * @param {{ all: Set<string>, styles: Set<string> }} present
 * @returns {Promise<unknown> | undefined}
 */
function addLink(href, isCss, present) {
  if ((isCss ? present.styles : present.all).has(href)) return undefined;
  const link = document.createElement('link');
  link.rel = isCss ? 'stylesheet' : 'modulepreload';
  if (!isCss) link.as = 'script';
  link.crossOrigin = '';
  link.href = href;
  document.head.appendChild(link);
  if (!isCss) return undefined;
  return new Promise((resolve, reject) => {
    const settle = (/** @type {Event} */ event) => {
      link.removeEventListener('load', settle);
      link.removeEventListener('error', settle);
      if (event.type === 'error') reject(new Error(`Unable to preload CSS for ${href}`));
      else resolve(event);
    };
    link.addEventListener('load', settle);
    link.addEventListener('error', settle);
  });
}

/** The evaluations under way, one after another: two imports at once must not share a task either. */
let queue = Promise.resolve();

/**
 * Imports the chunks at `hrefs` one per task, in that order, skipping those evaluated before, after any other
 * import's steps. Stops at the first that fails: the caller's own import reports the failure.
 * @param {string[]} hrefs
 * @param {(href: string) => Promise<unknown>} importChunk
 * @returns {Promise<void>}
 */
export function evaluateInSteps(hrefs, importChunk) {
  const steps = queue.then(async () => {
    for (const href of hrefs) {
      if (evaluated.has(href)) continue;
      const started = performance.now();
      try {
        await importChunk(href);
      } catch {
        return;
      }
      evaluated.add(href);
      if (performance.now() - started >= YIELD_AFTER_MS) await yieldToMain();
    }
  });
  queue = steps;
  return steps;
}

/**
 * The helper's signature is Vite's: `baseModule` is the import itself, `deps` the chunk and everything it needs,
 * the chunk first and its imports after it, depth first (so the reverse puts each chunk after what it imports).
 * @template T
 * @param {() => Promise<T>} baseModule
 * @param {string[] | undefined} deps
 * @returns {Promise<T>}
 */
export function __vitePreload(baseModule, deps) {
  const hrefs = (deps ?? []).map((dep) => new URL(`${BASE}${dep}`, document.baseURI).href);
  const scripts = hrefs.filter((href) => !href.endsWith('.css'));
  return preloadAll(hrefs)
    .then(() => evaluateInSteps(scripts.reverse(), (href) => import(/* @vite-ignore */ href)))
    .then(() => baseModule().catch(reportPreloadError));
}

/**
 * Adds the links that fetch `hrefs` (but those the page has already), a few per task: under a browser's
 * developer tools each request a script starts is some milliseconds of the main thread, and a screen has some
 * twenty. Resolves once the styles have arrived; a failure is reported as Vite's helper reports it.
 * @param {string[]} hrefs
 */
async function preloadAll(hrefs) {
  /** @type {{ all: Set<string>, styles: Set<string> } | undefined} */
  let present;
  /** @type {Array<Promise<unknown> | undefined>} */
  const preloads = [];
  for (const [index, href] of hrefs.entries()) {
    if (index > 0 && index % LINKS_PER_TASK === 0) await yieldToMain();
    preloads.push(
      preloadOnce(href, () => {
        if (!present) {
          present = { all: new Set(), styles: new Set() };
          for (const link of document.getElementsByTagName('link')) {
            present.all.add(link.href);
            if (link.rel === 'stylesheet') present.styles.add(link.href);
          }
        }
        return addLink(href, href.endsWith('.css'), present);
      }),
    );
  }
  const errors = await Promise.all(
    preloads.map((promise) =>
      Promise.resolve(promise).then(
        () => undefined,
        (/** @type {unknown} */ error) => error,
      ),
    ),
  );
  for (const error of errors) if (error !== undefined) reportPreloadError(error);
}

/**
 * As Vite's helper: a `vite:preloadError` event the app may cancel; uncancelled, the error is thrown, and a
 * cancelled one leaves the import resolving to nothing.
 * @param {unknown} error
 * @returns {undefined}
 */
function reportPreloadError(error) {
  const event = /** @type {Event & { payload?: unknown }} */ (new Event('vite:preloadError', { cancelable: true }));
  event.payload = error;
  window.dispatchEvent(event);
  if (!event.defaultPrevented) throw error;
  return undefined;
}
