import { defineConfig } from 'vitest/config';

/**
 * Files that change the working directory (they run command lines as a user types them, with
 * relative paths): process.chdir() exists only in a process of its own, so these run in forks.
 */
const CHDIR = ['test/help-examples.test.ts', 'test/import-hostile.test.ts', 'test/readme.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Vitest runs (cores - 1) files at once by default: ONE on these 2-core machines, so the
    // suite ran file after file while most files wait on loopback I/O and timers (the whole run
    // used about half a core). Three at once keeps both cores busy.
    maxWorkers: 3,
    globalSetup: ['test/helpers/global-setup.ts'],
    // The JSON report lets .ci/run close with a plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.test-results/results.json' }]],
    projects: [
      // Worker threads: a file's module graph loads in a thread instead of a new process, a
      // third less CPU for the same tests (each file still gets its own graph, env and sandbox).
      { extends: true, test: { name: 'threads', include: ['test/**/*.test.ts'], exclude: CHDIR, pool: 'threads' } },
      { extends: true, test: { name: 'forks', include: CHDIR, pool: 'forks' } },
    ],
  },
});
