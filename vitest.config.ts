import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: forks keep each file's sandbox and env apart.
    pool: 'forks',
    globalSetup: ['test/helpers/global-setup.ts'],
    // The JSON report lets .ci/run close with a plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.test-results/results.json' }]],
  },
});
