/**
 * Playwright global setup: starts the real server (server.ts: NODE_ENV=test, a fresh DATA_DIR under the temp
 * folder, free PG_PORT, port E2E_PORT or a free one) and hands its address and data folder to the tests through
 * the environment (E2E_BASE_URL, E2E_DATA_DIR), with a private copy of the client build (E2E_CLIENT_SNAPSHOT, see
 * fixtures.ts). The returned teardown stops the server with SIGINT, so PostgreSQL stops.
 *
 * To iterate on the tests against a server you already run, set E2E_BASE_URL and E2E_DATA_DIR yourself: nothing
 * is started then (that server must run with NODE_ENV=test for the captcha header).
 */
import fs from 'node:fs';
import { snapshotClientBuild, startServer } from './server.js';

export default async function globalSetup(): Promise<(() => Promise<void>) | void> {
  if (process.env.E2E_BASE_URL && process.env.E2E_DATA_DIR) {
    console.log(`[e2e] using the running server ${process.env.E2E_BASE_URL}`);
    return;
  }
  const started = Date.now();
  const server = await startServer();
  process.env.E2E_BASE_URL = server.baseURL;
  process.env.E2E_DATA_DIR = server.dataDir;
  const snapshot = snapshotClientBuild();
  process.env.E2E_CLIENT_SNAPSHOT = snapshot;
  console.log(`[e2e] server on ${server.baseURL} (data ${server.dataDir}), ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return async () => {
    await server.stop();
    fs.rmSync(snapshot, { recursive: true, force: true });
    console.log('[e2e] server stopped');
  };
}
