import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Forms of many Mantine fields take seconds per test under jsdom on a busy 2-core machine; a time limit
    // is not what these tests check.
    testTimeout: 20_000,
  },
});
