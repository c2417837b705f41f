/**
 * Vitest: unit tests (src/**), schema checks and server integration tests (tests/integration) against a real
 * PostgreSQL — the embedded one, started once per run by tests/integration/global-setup.ts. Files run one
 * after another: they share that database, and the machine has 2 cores.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/integration/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
