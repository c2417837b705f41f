/**
 * `npm run bench:flow` (issue 11 "Performance"; DESIGN §8 Workflow): figures, not a timed test.
 *
 * 1. Starts the kernel and the HTTP server in this process over a fresh data folder
 *    `<tmpdir>/kc-bench-flow-<pid>` (embedded PostgreSQL on a free port, migrations, demo seed, the shipped
 *    BPMN files deployed); the server listens on 127.0.0.1 and every call below goes over HTTP.
 * 2. Logs in as the researcher `kyry`, research management `kygl` and `admin` (the seed's one password).
 * 3. Start: `kyry` starts `BENCH_FLOW_N` (default 10,000) leave requests of 5 days
 *    (`POST /api/blade-desk/process/leave/start-process`, `BENCH_FLOW_C` = 8 at a time): every one waits on
 *    领导审批 for research management.
 * 4. With those N open tasks: `BENCH_FLOW_SAMPLES` (300) calls each, one at a time, of `kygl`'s
 *    `leave/todo-list?current=1&size=10` and `/api/basic/todo/countNumber`; p50, p99 and max are printed
 *    against the budget (under 50 ms).
 * 5. Approve: `kygl` completes every 领导审批 with `approve` (5 days > 3: the gateway leads on to 人事备案).
 * 6. File: `admin` completes every 人事备案; the instances end.
 * 7. Checks: N instances completed; no open task; `countNumber` of the leave path 0 for kygl and admin; kygl
 *    has N done to-dos. Prints instances per second (N / time of steps 3+5+6), steps per second per phase, and
 *    the machine's load average (`os.loadavg`).
 *
 * Bounded: `BENCH_FLOW_DEADLINE_S` (default 1,500 s) stops a run that would go on longer, with what it measured.
 * The exit code is 0 whatever the figures; non-zero only when something fails or a check does not hold.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/server/core/config.js';
import { buildApp, startKernel, type Kernel } from '../../src/server/app.js';

const N = Number(process.env.BENCH_FLOW_N ?? 10_000);
const C = Number(process.env.BENCH_FLOW_C ?? 8);
const SAMPLES = Number(process.env.BENCH_FLOW_SAMPLES ?? 300);
const DEADLINE = Date.now() + Number(process.env.BENCH_FLOW_DEADLINE_S ?? 1500) * 1000;
const BUDGET_MS = 50;
const LEAVE = '/api/blade-desk/process/leave';
const PATH = '/work/process/leave';
const say = (s: string) => console.log(s);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

type Api = <T>(url: string, body?: unknown) => Promise<T>;

async function session(base: string, account: string, password: string): Promise<Api> {
  const basic = 'Basic ' + Buffer.from('saber:saber_secret').toString('base64');
  const res = await fetch(`${base}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: { Authorization: basic, 'Tenant-Id': '000000', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: account, password }).toString(),
  });
  const tok = (await res.json()) as { access_token?: string };
  if (!tok.access_token) throw new Error(`login of ${account} failed: HTTP ${res.status}`);
  const headers = { 'Blade-Auth': `bearer ${tok.access_token}`, Authorization: basic };
  return async <T>(url: string, body?: unknown): Promise<T> => {
    const r = await fetch(base + url, body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const b = (await r.json()) as { code: number; data: T; msg: string };
    if (b.code !== 200) throw new Error(`${url}: ${b.code} ${b.msg}`);
    return b.data;
  };
}

/** Runs `work(i)` for i < n, `C` at a time; answers seconds. Throws past the deadline. */
async function pool(n: number, work: (i: number) => Promise<void>, label: string): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < n) {
      if (Date.now() > DEADLINE) throw new Error(`deadline reached during ${label} after ${done} of ${n}`);
      const i = next++;
      await work(i);
      if (++done % 1000 === 0) say(`  ${label}: ${done} / ${n} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
  };
  await Promise.all(Array.from({ length: C }, worker));
  return (performance.now() - t0) / 1000;
}

function quantiles(ms: number[]): { p50: number; p99: number; max: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1] };
}

async function latency(label: string, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 10; i++) await call(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    await call();
    ms.push(performance.now() - t0);
  }
  const q = quantiles(ms);
  say(`${label.padEnd(44)} p50 ${q.p50.toFixed(1)} ms  p99 ${q.p99.toFixed(1)} ms  max ${q.max.toFixed(1)} ms  (${SAMPLES} calls)  ${q.p99 < BUDGET_MS ? 'within' : 'OVER'} the ${BUDGET_MS} ms budget`);
  return q.p99;
}

async function main(): Promise<void> {
  const dataDir = path.join(os.tmpdir(), `kc-bench-flow-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as user postgres and must traverse it
  let kernel: Kernel | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const stop = async () => {
    await app?.close().catch(() => undefined);
    await kernel?.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    say(`starting the kernel (data in ${dataDir}) ...`);
    kernel = await startKernel(loadConfig({ dataDir, pgPort: await freePort(), loginRateMax: 100_000 }));
    app = await buildApp(kernel);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const password = fs.readFileSync(path.join(dataDir, 'initial-password'), 'utf8').trim();
    const [kyry, kygl, admin] = await Promise.all(['kyry', 'kygl', 'admin'].map((a) => session(base, a, password)));
    const db = kernel.database.pool;
    const openTaskIds = async (key: string) =>
      (await db.query(`SELECT id::text AS id FROM flow_task WHERE process_key = 'leave' AND task_key = $1 AND end_time IS NULL ORDER BY id`, [key])).rows.map((r) => r.id as string);

    say(`\n${N} leave requests, ${C} calls at a time, over HTTP on ${base}`);
    const tStart = await pool(N, async (i) => {
      await kyry(`${LEAVE}/start-process`, { startTime: '2026-12-01 09:00:00', endTime: '2026-12-05 18:00:00', days: 5, reason: `bench ${i}` });
    }, 'start');
    const approvals = await openTaskIds('managerApprove');
    if (approvals.length !== N) throw new Error(`expected ${N} open 领导审批 tasks, found ${approvals.length}`);
    const counts = await kygl<Record<string, number>>('/api/basic/todo/countNumber');
    if (counts[PATH] !== N) throw new Error(`kygl's countNumber for ${PATH} is ${counts[PATH]}, expected ${N}`);
    const list = await kygl<{ total: number; records: unknown[] }>(`${LEAVE}/todo-list?current=1&size=10`);
    if (list.total !== N || list.records.length !== 10) throw new Error(`kygl's todo-list total ${list.total}, expected ${N}`);
    say(`started: ${N} in ${tStart.toFixed(1)} s (${(N / tStart).toFixed(0)} starts/s); kygl has ${counts[PATH]} open to-dos\n`);

    say(`with ${N} open tasks:`);
    const p99List = await latency('GET leave/todo-list?current=1&size=10', () => kygl(`${LEAVE}/todo-list?current=1&size=10`));
    const p99Count = await latency('GET /api/basic/todo/countNumber', () => kygl('/api/basic/todo/countNumber'));

    say('');
    const tApprove = await pool(N, async (i) => {
      await kygl(`${LEAVE}/complete-task`, { taskId: approvals[i], outcome: 'approve', comment: '同意' });
    }, 'approve');
    const filings = await openTaskIds('hrFile');
    if (filings.length !== N) throw new Error(`expected ${N} open 人事备案 tasks, found ${filings.length}`);
    const tFile = await pool(N, async (i) => {
      await admin(`${LEAVE}/complete-task`, { taskId: filings[i], outcome: 'approve', comment: '已备案' });
    }, 'file');

    const completed = Number((await db.query(`SELECT count(*)::int AS n FROM flow_instance WHERE process_key = 'leave' AND run_status = 'completed'`)).rows[0].n);
    const open = Number((await db.query(`SELECT count(*)::int AS n FROM flow_task WHERE process_key = 'leave' AND end_time IS NULL`)).rows[0].n);
    const kyglAfter = (await kygl<Record<string, number>>('/api/basic/todo/countNumber'))[PATH] ?? 0;
    const adminAfter = (await admin<Record<string, number>>('/api/basic/todo/countNumber'))[PATH] ?? 0;
    const kyglDone = (await kygl<{ total: number }>('/api/basic/todo/list?state=1&size=1')).total;
    const total = tStart + tApprove + tFile;
    say(`\napprove: ${N} in ${tApprove.toFixed(1)} s (${(N / tApprove).toFixed(0)} steps/s); file: ${N} in ${tFile.toFixed(1)} s (${(N / tFile).toFixed(0)} steps/s)`);
    say(`instances completed ${completed} / ${N}; open tasks ${open}; countNumber[${PATH}] kygl ${kyglAfter}, admin ${adminAfter}; kygl done to-dos ${kyglDone}`);
    say(`\nRESULT instances/s ${(N / total).toFixed(1)} (${N} instances, 3 steps each, ${total.toFixed(1)} s); todo-list p99 ${p99List.toFixed(1)} ms; countNumber p99 ${p99Count.toFixed(1)} ms (budget ${BUDGET_MS} ms)`);
    say(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cpus)`);
    if (completed !== N || open !== 0 || kyglAfter !== 0 || adminAfter !== 0 || kyglDone < N) throw new Error('the to-do counts at the end are not right');
  } finally {
    await stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
