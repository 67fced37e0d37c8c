import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { directMantineImports } from './build/direct-mantine-imports';
import { firstScreenChunk } from './build/first-screen-chunk';
import { precompress } from './build/precompress';
import { stepwisePreload } from './build/stepwise-preload-plugin';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

/**
 * React Router's package sends every bundler to its development build, whose warnings stay in the bundle
 * (remix-run/react-router#12532, #14102); the build takes the production build it ships beside it.
 */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ command, isSsrBuild }) => {
  // The server's drawing of the public pages (src/prerender/public-pages.tsx), for Node: packages stay imports,
  // resolved from node_modules, and no chunk plan or compression applies.
  if (isSsrBuild) {
    return {
      plugins: [react()],
      resolve: { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] },
      build: { outDir: 'dist-ssr', sourcemap: false, copyPublicDir: false },
    };
  }
  const firstScreen = firstScreenChunk();
  return {
    plugins: [stepwisePreload(), directMantineImports(), react(), firstScreen, precompress()],
    resolve: {
      alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
    },
    server: {
      port: 5173,
      proxy: {
        '/api': { target: apiTarget, ws: true },
        '/dev': apiTarget,
        '/embed': apiTarget,
        '/pay': apiTarget,
      },
    },
    build: {
      outDir: 'dist',
      // Maps are written for our own debugging but never referenced from the bundles, and the server refuses
      // *.map (issue 16: the 5 MB map of the whole app was served to anyone).
      sourcemap: 'hidden',
      // Read by the server to link the styles of the screens it draws (apps/server/src/plugins/public-pages.ts).
      manifest: true,
      chunkSizeWarningLimit: 900,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              // What the entry imports first, so the start chunk cannot take it (build/first-screen-chunk.ts).
              { name: 'entry-imports', test: (id: string) => firstScreen.isEntryModule(id), priority: 2 },
              { name: 'start', test: (id: string) => firstScreen.isFirstScreenModule(id), priority: 1 },
              // Package code two or more lazy screens share, in one file rather than some thirty small ones
              // (docs/decisions/018-web-app-loads-per-screen.md).
              { name: 'screen-libraries', test: /node_modules/, minShareCount: 2, priority: 0 },
            ],
          },
        },
      },
    },
  };
});
