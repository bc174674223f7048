import { availableParallelism } from 'node:os';
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
    // Vitest's default is one fork fewer than the CPUs, so on a 2-vCPU machine (CI's, and ours) the
    // files ran one at a time: 595 s on ddd3a84. Much of the suite waits on child processes and
    // real-clock timeouts (the black-box cases, the CLI runs), so two forks overlap that waiting
    // with other files' work: 416 s on the same code, every test passing (issue 32).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
