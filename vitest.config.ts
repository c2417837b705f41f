/**
 * Vitest, two projects run one after another (the machine has 2 cores):
 *
 * - `server`: unit tests (src/**, except the client), schema checks and server integration tests
 *   (tests/integration) against a real PostgreSQL — the embedded one, started once per run by
 *   tests/integration/global-setup.ts. Files run serially: they share that database.
 * - `client`: React component tests (src/client/**, designer/**, storybook/** snapshot tests), under jsdom with tests/client-setup.ts (matchMedia,
 *   ResizeObserver ... stubs antd and Formily need). No database: `vitest run src/client` starts none.
 *   The first antd render of a file takes seconds under jsdom (DESIGN §13), hence the longer timeout.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['src/client/**', '**/node_modules/**'],
          environment: 'node',
          globalSetup: ['tests/integration/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          include: ['src/client/**/*.test.ts', 'src/client/**/*.test.tsx', 'designer/**/*.test.ts', 'designer/**/*.test.tsx', 'storybook/**/*.test.ts', 'storybook/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/client-setup.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
