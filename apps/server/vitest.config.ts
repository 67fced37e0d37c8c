import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/fixture-passwords.ts'],
    testTimeout: 30_000,
    // Test files share each worker's loaded modules: importing the app per file cost about a second of every
    // file's time. The server's tests mock no module and keep no state outside the apps
    // they build (one app is kept per worker and reset for each test: docs/decisions/029-a-test-app-kept-per-worker.md).
    isolate: false,
    hookTimeout: 60_000,
  },
});
