import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'bridges/**/*.test.ts',
      'contracts/**/*.test.ts',
      'architecture/**/*.test.ts',
      'server/**/*.test.ts',
      'components/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    // The long hardening tests run in `npm run test:hardening` (vitest.hardening.config.ts).
    exclude: ['node_modules', 'e2e', '.next', '**/*.hardening.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one fork less than the cores: a single fork on a 2-core machine, where
    // two forks ran the suite in 412–454 s against 646 s (most test files wait on PGlite, worker
    // threads or child processes more than they compute; 2026-12-04).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
