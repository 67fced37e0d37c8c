import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Puts every module the app's start (src/app/start.tsx) imports statically, however deep, in one chunk, but
 * for those the entry (src/main.tsx) imports itself.
 * Left to itself the bundler cuts them into some twenty files, shared with the lazy screens; each file is
 * compressed alone, and the login route paid about 6 KB gzip more than for the same code in one file (issue
 * 16). Every page loads all of them first anyway, so joining them costs no page anything.
 */
/**
 * A package's index, which re-exports all of it: taken in, it would bring every module of the package, and with
 * them whatever the other screens use of them.
 */
const PACKAGE_BARREL = /node_modules\/@mantine\/[^/]+\/esm\/index\.mjs$/;

export function firstScreenChunk(): Plugin & {
  isFirstScreenModule: (id: string) => boolean;
  isEntryModule: (id: string) => boolean;
} {
  const firstScreen = new Set<string>();
  const entry = new Set<string>();
  let startModule = '';
  let entryModule = '';
  return {
    name: 'vetcall-first-screen-chunk',
    apply: 'build',
    configResolved(config) {
      startModule = path.resolve(config.root, 'src/app/start.tsx');
      entryModule = path.resolve(config.root, 'src/main.tsx');
    },
    buildEnd() {
      const staticClosure = (root: string) => {
        const found = new Set<string>();
        const pending = [root];
        while (pending.length > 0) {
          const id = pending.pop()!;
          if (found.has(id) || PACKAGE_BARREL.test(id)) continue;
          found.add(id);
          pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return found;
      };
      // What the entry itself imports (the start-up requests) stays out of this chunk, in one the entry loads
      // first, so those requests go out before this chunk has downloaded (docs/decisions/018-web-app-loads-per-screen.md).
      for (const id of staticClosure(entryModule)) if (id !== entryModule) entry.add(id);
      for (const id of staticClosure(startModule)) if (!entry.has(id)) firstScreen.add(id);
    },
    // The entry (main.tsx) imports the start only once it runs; named in the page, the start downloads beside it
    // instead of one round trip later.
    transformIndexHtml(_html, context) {
      const start = Object.values(context.bundle ?? {}).find(
        (output) => output.type === 'chunk' && output.name === 'start',
      );
      if (!start) return [];
      return [
        {
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${start.fileName}` },
          injectTo: 'head',
        },
      ];
    },
    isFirstScreenModule: (id) => firstScreen.has(id),
    isEntryModule: (id) => entry.has(id),
  };
}
