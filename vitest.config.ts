import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: forks keep each file's sandbox and env apart.
    pool: 'forks',
    // Vitest runs (cores - 1) files at once by default: ONE on these 2-core machines, so the
    // suite ran file after file while most files wait on loopback I/O and timers (the whole run
    // used about half a core). Three at once keeps both cores busy.
    maxWorkers: 3,
    globalSetup: ['test/helpers/global-setup.ts'],
    // The JSON report lets .ci/run close with a plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.test-results/results.json' }]],
  },
});
