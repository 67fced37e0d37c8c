import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'shared',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The property tests take half a second alone and ten times that beside the other test worker on a busy
    // 2-core machine; a test that is about time says so itself (password-strength's bounded scoring).
    testTimeout: 30_000,
  },
});
