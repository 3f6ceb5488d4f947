import { defineConfig } from 'vitest/config';

// The long hardening tests (hostile hook corpus, faults, load, 100k-step paging): `npm run
// test:hardening`. --expose-gc lets the memory checks measure after a collection.
export default defineConfig({
  test: {
    include: ['server/**/*.hardening.test.ts'],
    exclude: ['node_modules', 'e2e', '.next'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    execArgv: ['--expose-gc'],
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: 'reports/vitest-hardening.json' }]],
  },
});
