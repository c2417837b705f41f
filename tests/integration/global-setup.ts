/**
 * Starts one embedded PostgreSQL for the whole test run, in a fresh folder under the system temp directory
 * (chmod 755 so the `postgres` user can enter it, DESIGN §13), migrates, syncs and seeds it through the
 * same `startKernel` as `npm start` (and the demo projects an app seeds once ready: an app is built, made ready
 * and closed), and hands the connection string, the data folder and the generated
 * demo password to the test files (`inject('db')`). Everything is stopped and removed at the end.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/server/core/config.js';
import { buildApp, startKernel, type Kernel } from '../../src/server/app.js';
import { seedDemoProjects } from '../../src/server/modules/project/demo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    db: { url: string; dataDir: string; password: string };
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

let kernel: Kernel | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-test-'));
  fs.chmodSync(dataDir, 0o755);
  kernel = await startKernel(loadConfig({ dataDir, databaseUrl: undefined, pgPort: await freePort() }));
  const password = fs.readFileSync(path.join(dataDir, 'initial-password'), 'utf8').trim();
  // the demo tenant's projects are seeded through the API once an app is ready (modules/project/demo.ts): done
  // here, before any test file starts, so no test sees them appear while it runs
  const app = await buildApp(kernel);
  await app.ready();
  await seedDemoProjects(app, kernel);
  await app.close();
  project.provide('db', { url: kernel.database.url, dataDir, password });
}

export async function teardown(): Promise<void> {
  await kernel?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
