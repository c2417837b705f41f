/**
 * Vitest, two projects:
 *
 * - `server`: unit tests (src/**, except the client), schema checks and server integration tests
 *   (tests/integration) against a real PostgreSQL — the embedded one, started once per run by
 *   tests/integration/global-setup.ts. Its files run one at a time (`fileParallelism: false`): they share
 *   that database.
 * - `client`: React component tests (src/client/**, designer/**, storybook/** snapshot tests), under jsdom with
 *   tests/client-setup.ts (matchMedia, ResizeObserver ... stubs antd and Formily need; i18next set up). No
 *   database, no shared state between files (each file gets its own module graph and jsdom), so its files run
 *   in parallel, in forked workers, two at a time (`maxWorkers: 2`: the machine has 2 cores; vitest's default
 *   would be cores − 1 = 1, i.e. serial). The first antd render of a file takes seconds under jsdom
 *   (DESIGN §13), hence the longer timeout.
 *
 * Vitest runs the parallel project first, then the serial one (its scheduler puts single-worker projects in a
 * group of their own after the others), so the two never compete for the cores and the database is used by
 * one server file at a time.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
          fileParallelism: false,
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
          pool: 'forks',
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
