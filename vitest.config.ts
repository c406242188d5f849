import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Type tests (the SDK's face): `vitest run --typecheck.only test/sdk`; `npm run typecheck` checks them too.
    typecheck: { include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // A test waits for conditions, not for time: the timeout only says a hang. Generous, since a
    // loaded 2-core machine (two busy loops beside the suite) takes long to start processes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // CLI end-to-end tests spawn real processes; two cores do not profit from many workers.
    maxWorkers: 2,
  },
});
