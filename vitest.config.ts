import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Type tests (the SDK's face): `vitest run --typecheck.only test/sdk`; `npm run typecheck` checks them too.
    typecheck: { include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CLI end-to-end tests spawn real processes; two cores do not profit from many workers.
    maxWorkers: 2,
  },
});
