import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    // The files of a worker share one document and one load of the app's modules: a new jsdom and a new load of
    // React, Mantine and the screens for each file cost more than the tests themselves (190 s → 70 s for the
    // web project on the 2-core machine). test/setup.ts puts back what a file may change between files; no
    // test mocks a module (vi.mock cannot work across files sharing their modules): tests fake the network
    // boundary (test/fake-api.ts, test/fake-upload-request.ts) or spy on an object's method.
    isolate: false,
    // Forms of many Mantine fields take seconds per test under jsdom on a busy 2-core machine; a time limit
    // is not what these tests check.
    testTimeout: 20_000,
  },
});
