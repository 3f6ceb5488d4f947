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
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
