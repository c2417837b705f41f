/**
 * `npm run test:e2e`: the journeys a person makes, in Debian's chromium (DESIGN §9), against the built app served
 * by the real server (started once by global-setup.ts). One worker (the journeys share one database and the
 * machine has 2 cores), one retry: a journey that fails twice fails (a first failure on a loaded 2-core machine is
 * reported as flaky, never hidden). Artifacts of failures (trace, screenshot) go to the temp folder.
 */
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './server.js';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  workers: 1,
  fullyParallel: false,
  retries: 1,
  forbidOnly: !!process.env.CI,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  globalTimeout: 40 * 60_000,
  globalSetup: './global-setup.ts',
  outputDir: path.join(os.tmpdir(), 'kc-e2e-results'),
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: CHROMIUM,
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
