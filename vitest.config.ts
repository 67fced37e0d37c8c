import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web'],
    // Vitest's default for `run` is one worker fewer than the cores: on the 2-core CI machine that ran every test
    // file one after another while a core sat idle. The main process mostly waits on the workers once the
    // files are transformed, so each core gets a worker.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
