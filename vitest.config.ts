import { defineConfig } from 'vitest/config';

/** Unit tests: pure logic and the lifecycle on a temp root; no root, no namespaces needed. */
export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'e2e/support/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
