import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // `import ... from 'catsim'` (the examples and test cores) runs the package's TypeScript entry,
    // as tsconfig.json's `paths` and tsx do: package.json's `exports` names the compiled dist/,
    // which the tests must not depend on (it may be stale or missing while sources are edited).
    alias: [{ find: /^catsim$/, replacement: fileURLToPath(new URL('./api/index.ts', import.meta.url)) }],
  },
  test: {
    include: [
      'contract/**/*.test.ts',
      'src/**/*.test.ts',
      'sim/**/*.test.ts',
      'cores/**/*.test.ts',
      'runner/**/*.test.ts',
      'oracle/**/*.test.ts',
      'blackbox/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
