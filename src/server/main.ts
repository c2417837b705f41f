/**
 * `npm start`: starts the platform on http://127.0.0.1:8080 (PORT, HOST to change), with the embedded
 * PostgreSQL under `data/` unless DATABASE_URL is set. On the first start it seeds the demo data and prints
 * the generated password once (it is also in data/initial-password, mode 600). Ctrl-C (SIGINT) or SIGTERM
 * stops the HTTP server, flushes the API log and stops PostgreSQL cleanly. The web client is (re)built first when
 * its build is missing or older than its sources (client-build.ts).
 */
import { loadConfig } from './core/config.js';
import { buildApp, startKernel } from './app.js';
import { ensureClientBuild } from './client-build.js';
import { DEMO_ACCOUNTS } from './modules/system/seed/index.js';
import { tuneHeap } from './core/heap.js';

tuneHeap(); // the heap stays near its live size (core/heap.ts; issue 13's memory budget)
const config = loadConfig();
const say = (s: string) => console.log(`[kechuang] ${s}`);

const kernel = await startKernel(config, say).catch((e: Error) => {
  console.error(`[kechuang] could not start: ${e.message}`);
  process.exit(1);
});
// before buildApp: it serves dist/client only when the build is there
await ensureClientBuild(say);
const app = await buildApp(kernel, { logger: true });

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  say(`${signal}: stopping ...`);
  await app.close().catch(() => undefined);
  await kernel.close().catch((e) => console.error(e));
  say('stopped');
  process.exit(0);
}
// while stopping, the embedded PostgreSQL ends the connections a job or a listener still holds before their
// pools are closed ('terminating connection due to administrator command'): not a failure of the server
process.on('uncaughtException', (e) => {
  if (stopping) return;
  console.error(e);
  process.exit(1);
});
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (e) {
  console.error(`[kechuang] cannot listen on ${config.host}:${config.port}: ${(e as Error).message}`);
  await kernel.close();
  process.exit(1);
}

const url = `http://${config.host}:${config.port}`;
say(`listening on ${url}  (API docs: ${url}/api/docs)`);
say('demo accounts (tenant 000000 unless noted):');
for (const a of DEMO_ACCOUNTS) say(`  ${a.account.padEnd(6)} ${a.note}`);
say('  admin  of tenant 100001 (示范粮食储备有限公司): its administrator');
if (kernel.seed.password) {
  say(`initial password of every demo account: ${kernel.seed.password}`);
  say(`(shown once; also stored in ${kernel.seed.passwordFile}, mode 600)`);
} else {
  say(`password: see data/initial-password (generated on the first start)`);
}
