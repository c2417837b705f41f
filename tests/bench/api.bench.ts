/**
 * API benchmark (DESIGN §10): list pages over 100,000 rows, ours against a bare server running the same SQL,
 * with PostgreSQL's memory and prepared statements watched over each run.
 *
 * `npm run bench:api` (about 3–4 minutes with the default 20 s runs):
 *
 * 1. Starts the kernel (`startKernel`) over a fresh embedded PostgreSQL in `<tmpdir>/kc-bench-<pid>` on a
 *    free port: migrations, table sync (with the list, create_user/create_dept, pg_trgm and `type` indexes)
 *    and the demo seed, exactly as `npm start` does.
 * 2. Seeds 100,000 rows into `basic_patent` with `INSERT … SELECT FROM generate_series` (4 batches): tenant
 *    000000, created by `kygl`, create_time spread over the last 3 years, realistic Chinese names built from
 *    30 grain-storage topics (one of them is 低温储粮, so the name filter matches about 3.3 % of the rows),
 *    type 1/2/3, then `VACUUM (ANALYZE)`: a table in steady state (statistics, visibility map for index-only
 *    scans), and no autovacuum of the fresh rows starting in the middle of a measured run.
 * 3. Logs in like a client as `kygl` (research management: the `patent` menu grant, no data scope) and
 *    serves the real Fastify app (`buildApp`) on 127.0.0.1.
 * 4. Starts a bare `node:http` server with its own `pg.Pool` (20 connections, as ours; same time zone and
 *    type parsers) that answers the same envelope `{code, success, data: {records, total, size, current,
 *    pages}, msg}` by running, in parallel, the page SQL (with `pageParams`) and the bounded count SQL (with
 *    `params`) that `engine.buildPageQuery` builds for that user and that request URL (precomputed for every
 *    URL of every scenario). Like the engine it runs them as named prepared statements named by a hash of
 *    the SQL text, and keeps the bounded count for the CountCache lifetime (5 s) keyed, like the engine, by
 *    count SQL and parameters. It does no auth, no validation, no row mapping and no API log, so it is the
 *    ceiling for "the same SQL".
 * 5. Loads `GET /api/basic/patent/list` on both servers with autocannon (50 connections, 20 s per measured
 *    run after a 2 s warm-up; the load generator runs in a worker thread so it does not share the servers'
 *    event loop) in three scenarios:
 *    - `no filter`: `current=1&size=10`, one URL;
 *    - `name filter`: `current=1&size=10&name=低温储粮`, one URL;
 *    - `mixed` (the DESIGN §10 budget): a pool of `BENCH_PATHS` (default 3,000) distinct URLs, each a random
 *      page 1–500, a random size 10–50, each of three filters with probability ½ — `name` contains one of
 *      6 topics, `type_equal` 1/2/3 (dictionary patent_type), and a `createTime_dategt`/`createTime_datelt`
 *      window of 30–365 days — and one of five orders (the default `-createTime`, or `ascs`/`descs` on
 *      `applyDate` or `authorizationDate`). The pool is built from a fixed seed, so every run asks the same
 *      URLs; each request of each connection picks one at random (autocannon `setupRequest`), so no cache
 *      sees one page twice in a row. 8 filter sets × 5 orders = 40 page shapes + 8 count shapes: at most 48
 *      prepared list statements per connection.
 *
 * What it prints, per server and scenario: req/s (mean over the run), latency p50, p97.5, p99 and max in ms
 * (autocannon, per request: a closed loop of 50 connections, so latency includes queueing in the server),
 * requests, non-2xx and errors; then PostgreSQL right after the warm-up ("before") and right after the
 * measured run ("after", once the measured pool is idle again), over the postmaster named by
 * `<data>/pg/postmaster.pid` and all its children (backends of both pools, parallel workers, background
 * processes):
 * - `pg anon MB`: the sum of RssAnon (/proc/<pid>/status) — private memory: plan caches, prepared
 *   statements, catalog caches, sort memory. The memory verdict reads this one;
 * - `pg pss MB`: the sum of Pss (/proc/<pid>/smaps_rollup; shared pages split among the processes that map
 *   them, so the sum is the real total), which also grows as backends touch more of the shared buffers;
 *   VmRSS marked `*` when smaps_rollup cannot be read (not root), which counts shared pages once per process;
 * - `stmts/conn max` and `stmts sum`: `pg_prepared_statements` on each connection of the measured server's
 *   pool (every idle client checked out and asked): the largest count on one connection and the sum.
 *   Statements the start-up check of a scenario prepared count in that scenario.
 * Last, one verdict line per scenario for ours, each part PASS or FAIL: p99 under 50 ms (and no errors),
 * ratio ours ÷ bare in req/s at least 0.8, memory flat: anon after ≤ anon before × 1.2 + 20 MB (DESIGN §13:
 * the old inlined LIMIT/OFFSET took the database from 32 MB to 617 MB in 30 s of paging), and statements
 * bounded: at most one per list SQL shape of all the scenarios (page and count; 48 with `mixed`) on any
 * connection. The last is the sharp one: the leak grows with the number of distinct pages served, so a slow
 * run can stay under the memory slack while its statement count already gives it away. The machine's
 * other work shows in every figure: read the ratio (both servers on the same machine, one after the other)
 * before the absolute figures, and compare runs only on a quiet machine.
 *
 * The exit code is 0 whatever the figures (a benchmark prints figures; it is not a test); it is non-zero only
 * when something crashes. Environment: `BENCH_SECONDS` (or `BENCH_DURATION`; seconds per measured run,
 * default 20), `BENCH_CONNECTIONS` (default 50), `BENCH_PATHS` (distinct URLs of the mixed scenario, default
 * 3000), `BENCH_ONLY=mixed` (run only the scenarios whose label contains it). Before loading it prints the
 * execution time of the page and the count SQL of each fixed scenario and of three sample mixed URLs (one
 * `EXPLAIN ANALYZE`, warm cache); `BENCH_EXPLAIN=1` prints the whole `EXPLAIN (ANALYZE, BUFFERS)` plans, and
 * `BENCH_EXPLAIN=shapes` times the deepest page of each of the 40 mixed page shapes instead of three samples
 * (which shapes make the mixed figures).
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { loadConfig } from '../../src/server/core/config.js';
import { buildApp, startKernel, type Kernel } from '../../src/server/app.js';
import { userFromClaims, type AuthUser } from '../../src/server/core/context.js';
import { nextId } from '../../src/server/core/ids.js';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { CountCache } from '../../src/server/resources/count-cache.js';

/** The part of autocannon's result this benchmark reads (autocannon ships no types). */
interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  total: number;
}
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: Histogram & { totalCount: number };
  requests: Histogram & { sent: number };
  throughput: Histogram;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;

const ROWS = 100_000;
const BATCHES = 4;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const DURATION = Number(process.env.BENCH_SECONDS || process.env.BENCH_DURATION || 20);
const WARMUP = 2;
const MIXED_PATHS = Number(process.env.BENCH_PATHS || 3000);
const ONLY = process.env.BENCH_ONLY ?? '';
const POOL_SIZE = 20; // as openDatabase's default
const P99_BUDGET_MS = 50;
const RATIO_BUDGET = 0.8;
/** Memory is flat when PostgreSQL's private memory after a run is at most before × 1.2 + 20 MB. */
const MEMORY_FACTOR = 1.2;
const MEMORY_SLACK_MB = 20;
const FILTER = '低温储粮';
const LIST_PATH = '/api/basic/patent/list';

const say = (line: string) => console.log(line);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Inserts ROWS patents for `userId`/`deptId` in BATCHES statements; ids are distinct and above every id issued so far. */
async function seedPatents(pool: pg.Pool, userId: string, deptId: string): Promise<void> {
  // A snowflake now, plus g: above all ids so far, and below any id issued a millisecond later (+2^22).
  const base = nextId();
  const topics = [
    '粮食储藏技术', '粮仓智能通风', '低温储粮', '粮情测控', '储粮害虫防治', '粮食干燥', '氮气气调储粮', '横向通风储粮',
    '粮堆温湿度监测', '浅圆仓进出粮', '稻谷保鲜储藏', '玉米烘干', '小麦品质检测', '粮食真菌毒素检测', '粮食仓储物流',
    '粮食质量追溯', '食用油脂精炼', '米糠稳定化', '散粮装卸', '粮仓隔热保温', '内环流控温', '粮食快速检测', '谷物冷却',
    '粮面压盖', '仓房气密性改造', '智能出入库', '粮食扦样', '储粮熏蒸', '杂质清理', '粮食包装',
  ];
  const prefixes = ['一种', '一种基于物联网的', '一种用于平房仓的', '一种节能型', '一种智能化', '基于机器视觉的', '一种便携式'];
  const suffixes = ['装置', '方法', '系统', '设备及其控制方法', '检测方法', '工艺', '监测系统', '一体机', '控制装置', '评价方法', '管理平台'];
  const arr = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x}'`).join(',')}]`;
  const per = ROWS / BATCHES;
  for (let b = 0; b < BATCHES; b++) {
    // h: a cheap deterministic hash of g so that name, dates and codes are not correlated with each other
    await pool.query(
      `INSERT INTO basic_patent (id, tenant_id, name, dept_id, project_source, project_id, project_name, project_type, type,
         region, address, postcode, apply_date, authorization_date, open_code, authorization_code, code, signature,
         is_transfer, assignee, ownership_detail_form, user_names_detail_form, annex,
         create_user, create_dept, create_time, update_user, update_time, status, is_deleted)
       SELECT $1::bigint + g, '000000',
              (${arr(prefixes)})[1 + (h % 7)::int] || (${arr(topics)})[1 + ((h / 7) % 30)::int] || (${arr(suffixes)})[1 + ((h / 210) % 11)::int],
              $3::bigint::text, 1 + g % 3, CASE WHEN g % 3 = 2 THEN NULL ELSE (1700000000000000000 + g)::text END,
              CASE WHEN g % 3 = 2 THEN '粮食储运关键技术研究' ELSE NULL END,
              (1 + g % 4)::text, (1 + h % 3)::text, '中国', '北京市西城区百万庄大街' || (1 + g % 200) || '号', '100037',
              ct::date - 400, ct::date - 30,
              'CN' || (110000000 + g) || 'A', 'ZL ' || (2021 + g % 3) || ' 1 ' || lpad((g % 10000000)::text, 7, '0') || '.' || g % 10,
              '第' || (4000000 + g) || '号', (1 + g % 3)::text,
              g % 2 = 0,
              CASE WHEN g % 2 = 0 THEN jsonb_build_array(jsonb_build_object('name', '中粮科技有限公司', 'transferType', '1', 'transferDate', (ct::date)::text, 'amount', 20 + g % 80)) ELSE '[]'::jsonb END,
              jsonb_build_array(jsonb_build_object('name', '粮储集团有限公司', 'rank', 1)),
              jsonb_build_array(jsonb_build_object('userName', '李科', 'userId', $2::bigint::text, 'deptName', '集团科技部', 'rank', 1),
                                jsonb_build_object('userName', '王申', 'deptName', '华北分公司', 'rank', 2)),
              jsonb_build_array(jsonb_build_object('name', '专利证书.pdf', 'url', '/files/patent/' || g || '.pdf')),
              $2::bigint, $3::bigint, ct, $2::bigint, ct, 1, 0
         FROM (SELECT g, (g * 2654435761) % 4294967296 AS h,
                      now() - make_interval(secs => ((g * 40503) % 94608000)::double precision) AS ct
                 FROM generate_series($4::bigint, $5::bigint) AS g) s`,
      [base, userId, deptId, b * per + 1, (b + 1) * per],
    );
  }
  await pool.query('VACUUM (ANALYZE) basic_patent');
}

async function login(baseUrl: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64'),
      'Tenant-Id': '000000',
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username: 'kygl', password }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || !body.access_token) throw new Error(`login failed: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** Count lifetime of the engine's CountCache (src/server/resources/count-cache.ts). */
const COUNT_TTL_MS = new CountCache().ttlMs;

interface QuerySet {
  pageSql: string;
  countSql: string;
  pageName: string;
  countName: string;
  /** The parameters of the count SQL. */
  params: unknown[];
  /** The parameters of the page SQL: `params` then LIMIT and OFFSET. */
  pageParams: unknown[];
  current: number;
  size: number;
}

/** The statement name the engine gives a SQL text (ResourceEngine.prepared). */
const statementName = (text: string) => 'kc_' + createHash('sha1').update(text).digest('hex').slice(0, 20);

/** A small deterministic PRNG (mulberry32), so that every run builds the same mixed URLs. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Topics of the seed (3+ characters each, so the pg_trgm index serves them), for the mixed name filter. */
const MIXED_NAMES = ['低温储粮', '粮情测控', '储粮害虫防治', '玉米烘干', '智能出入库', '粮食快速检测'];
const MIXED_ORDERS = ['', 'ascs=applyDate', 'descs=applyDate', 'ascs=authorizationDate', 'descs=authorizationDate'];

/**
 * `n` distinct list URLs (DESIGN §10 mixed load): page 1–500, size 10–50, each of three filters with
 * probability ½ (name contains, type equal, a create-time window) and one of MIXED_ORDERS.
 */
function mixedPaths(n: number): string[] {
  const rnd = prng(20251);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const out = new Set<string>();
  while (out.size < n) {
    const q = [`current=${int(1, 500)}`, `size=${int(10, 50)}`];
    if (rnd() < 0.5) q.push(`name=${encodeURIComponent(MIXED_NAMES[int(0, MIXED_NAMES.length - 1)])}`);
    if (rnd() < 0.5) q.push(`type_equal=${int(1, 3)}`);
    if (rnd() < 0.5) {
      const from = int(30, 1095);
      q.push(`createTime_dategt=${day(from)}`, `createTime_datelt=${day(Math.max(0, from - int(30, 365)))}`);
    }
    const order = MIXED_ORDERS[int(0, MIXED_ORDERS.length - 1)];
    if (order) q.push(order);
    out.add(`${LIST_PATH}?${q.join('&')}`);
  }
  return [...out];
}

/**
 * PostgreSQL's memory: the postmaster of `pgDir` and all its children, summed from /proc/<pid>/status
 * (RssAnon) and /proc/<pid>/smaps_rollup (Pss; VmRSS where smaps_rollup cannot be read, `pssExact` false).
 */
function pgMemory(pgDir: string): { procs: number; pssMB: number; pssExact: boolean; anonMB: number } {
  const postmaster = Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let pss = 0;
  let pssExact = true;
  let anon = 0;
  let procs = 0;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${d}/status`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
    if (Number(d) !== postmaster && ppid !== postmaster) continue;
    const kb = (text: string, key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    anon += kb(status, 'RssAnon');
    try {
      pss += kb(fs.readFileSync(`/proc/${d}/smaps_rollup`, 'utf8'), 'Pss');
    } catch {
      pss += kb(status, 'VmRSS'); // not ours to read: RSS, which counts shared pages once per process
      pssExact = false;
    }
    procs++;
  }
  return { procs, pssMB: pss / 1024, pssExact, anonMB: anon / 1024 };
}

/** The number of prepared statements on each connection of `pool` (every idle client checked out and asked). */
async function preparedPerConnection(pool: pg.Pool): Promise<number[]> {
  const deadline = Date.now() + 5000; // requests still in flight when the load stopped finish first
  while ((pool.idleCount < pool.totalCount || pool.waitingCount > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
  try {
    return await Promise.all(clients.map(async (c) => (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n));
  } finally {
    for (const c of clients) c.release();
  }
}

interface Snapshot {
  procs: number;
  pssMB: number;
  pssExact: boolean;
  anonMB: number;
  /** Prepared statements per connection of the measured server's pool. */
  stmts: number[];
}

/** The same type parsers and session settings as src/server/core/db (so both servers do the same pg work). */
const bareTypes = {
  getTypeParser(oid: number, format?: any) {
    if (oid === 20 || oid === 1082) return (v: string) => v;
    if (oid === 1700) return (v: string) => Number(v);
    if (oid === 1114 || oid === 1184) return (v: string) => v.slice(0, 19);
    return pg.types.getTypeParser(oid, format);
  },
};

/** A bare node:http + pg server answering each URL of `sets` with the page and count SQL, run in parallel. */
async function startBare(url: string, timeZone: string, countBound: number, sets: Map<string, QuerySet>) {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, types: bareTypes as any, options: `-c TimeZone=${timeZone} -c statement_timeout=60000 -c jit=off` }); // the session settings of openDatabase (core/db/index.ts)
  const countCache = new Map<string, { at: number; value: number }>();
  const server = http.createServer((req, res) => {
    const set = sets.get(req.url ?? '');
    if (!set) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end('{"code":404,"success":false}');
      return;
    }
    // the same work as the engine: both statements named by their SQL text (prepared once per connection),
    // and the bounded count kept for COUNT_TTL_MS keyed by count SQL and parameters (the engine's
    // CountCache, so pages of one filter share it); nothing writes during the run
    const countKey = set.countSql + '\u0000' + JSON.stringify(set.params);
    const cached = countCache.get(countKey);
    const counting =
      cached && Date.now() - cached.at <= COUNT_TTL_MS
        ? cached.value
        : pool.query({ name: set.countName, text: set.countSql, values: set.params }).then((c) => {
            countCache.set(countKey, { at: Date.now(), value: c.rows[0].c as number });
            return c.rows[0].c as number;
          });
    Promise.all([pool.query({ name: set.pageName, text: set.pageSql, values: set.pageParams }), counting]).then(
      ([rows, counted]) => {
        const total = Math.min(counted, countBound);
        const body = JSON.stringify({
          code: 200,
          success: true,
          data: { records: rows.rows, total, size: set.size, current: set.current, pages: Math.ceil(total / set.size) },
          msg: '操作成功',
        });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
      },
      (e: Error) => {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ code: 500, success: false, msg: e.message }));
      },
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pool,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

interface Scenario {
  label: string;
  /** The request paths: one for a fixed scenario, many (each request picks one at random) for `mixed`. */
  paths: string[];
}

interface Row {
  label: string;
  scenario: string;
  server: 'ours' | 'bare';
  result: AutocannonResult;
  before: Snapshot;
  after: Snapshot;
}

/** What autocannon loads: one URL, or a base URL and a `setupRequest` file that picks a path per request. */
interface Target {
  url: string;
  setupRequest?: string;
}

async function load(target: Target, headers: Record<string, string>, duration: number): Promise<AutocannonResult> {
  // workers: 1 — the load generator runs in its own thread, not on the event loop of the server it measures
  // (functions cannot cross into that thread, hence a file for setupRequest)
  const requests = target.setupRequest ? { requests: [{ method: 'GET', setupRequest: target.setupRequest }] } : {};
  return autocannon({ url: target.url, headers, connections: CONNECTIONS, duration, workers: 1, ...requests });
}

/** Writes a CommonJS `setupRequest` for autocannon's worker that sets a random path of `paths` on each request. */
function writePathPicker(file: string, paths: string[]): string {
  fs.writeFileSync(
    file,
    `'use strict';\nconst paths = ${JSON.stringify(paths)};\n` +
      'module.exports = function setupRequest(req) {\n  req.path = paths[Math.floor(Math.random() * paths.length)];\n  return req;\n};\n',
  );
  return file;
}

async function measure(scenario: string, server: 'ours' | 'bare', target: Target, headers: Record<string, string>, probe: () => Promise<Snapshot>): Promise<Row> {
  const label = `${server} ${scenario}`;
  await load(target, headers, WARMUP);
  const before = await probe();
  const result = await load(target, headers, DURATION);
  const after = await probe();
  say(`  measured ${label}: ${result.requests.average.toFixed(1)} req/s, p99 ${result.latency.p99} ms, PostgreSQL anon ${before.anonMB.toFixed(0)} → ${after.anonMB.toFixed(0)} MB, statements/conn max ${Math.max(0, ...before.stmts)} → ${Math.max(0, ...after.stmts)}`);
  return { label, scenario, server, result, before, after };
}

async function getJson(url: string, headers: Record<string, string>): Promise<any> {
  const res = await fetch(url, { headers });
  const body = await res.json();
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** Prints how long the page and count SQL of `set` take in PostgreSQL (and their whole plans when `full`). */
async function explain(pool: pg.Pool, label: string, set: QuerySet, full: boolean): Promise<void> {
  const times: string[] = [];
  for (const [what, text, params] of [['page', set.pageSql, set.pageParams], ['count', set.countSql, set.params]] as const) {
    await pool.query(text, params); // warm
    const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    const lines = plan.rows.map((r) => String(r['QUERY PLAN']));
    const node = lines.find((l) => /Scan/.test(l))?.replace(/^[\s>-]+/, '').replace(/\s+\(.*$/, '') ?? '?';
    times.push(`${what} ${lines.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?'} (${node})`);
    if (full) {
      say(`\n-- ${label}, ${what} SQL: ${text}\n-- params: ${JSON.stringify(params)}`);
      for (const l of lines) say('   ' + l);
    }
  }
  say(`SQL ${label}: ${times.join('; ')}`);
}

async function main(): Promise<void> {
  const dataDir = path.join(os.tmpdir(), `kc-bench-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as user postgres and must traverse it
  const config = loadConfig({ dataDir, databaseUrl: undefined, pgPort: await freePort(), port: 0, host: '127.0.0.1', isTest: false });
  const pgDir = path.join(dataDir, 'pg'); // src/server/core/db/embedded.ts

  let kernel: Kernel | undefined;
  let app: FastifyInstance | undefined;
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await bare?.close().catch(() => undefined);
      await app?.close().catch(() => undefined);
      await kernel?.close().catch((e: Error) => console.error('kernel close:', e.message));
      fs.rmSync(dataDir, { recursive: true, force: true });
    })());
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

  try {
    const t0 = Date.now();
    kernel = await startKernel(config, (l) => say(`[kernel] ${l}`));
    const pool = kernel.database.pool;
    const kygl = await pool.query<{ id: string; dept_id: string }>(`SELECT id::text, dept_id::text FROM blade_user WHERE tenant_id = '000000' AND account = 'kygl' AND is_deleted = 0`);
    if (!kygl.rows[0]) throw new Error('the demo user kygl is missing');
    const existing = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM basic_patent');
    say(`kernel ready in ${((Date.now() - t0) / 1000).toFixed(1)} s; seeding ${ROWS.toLocaleString('en')} patents (basic_patent had ${existing.rows[0].n}) ...`);
    const t1 = Date.now();
    await seedPatents(pool, kygl.rows[0].id, kygl.rows[0].dept_id);
    const stats = await pool.query<{ n: number; m: number }>(`SELECT count(*)::int AS n, count(*) FILTER (WHERE name ILIKE $1)::int AS m FROM basic_patent WHERE tenant_id = '000000' AND is_deleted = 0`, [`%${FILTER}%`]);
    say(`seeded in ${((Date.now() - t1) / 1000).toFixed(1)} s: ${stats.rows[0].n} live rows, ${stats.rows[0].m} (${((100 * stats.rows[0].m) / stats.rows[0].n).toFixed(1)} %) match name=${FILTER}`);

    app = await buildApp(kernel);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const oursUrl = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const password = fs.readFileSync(path.join(dataDir, 'initial-password'), 'utf8').trim();
    const token = await login(oursUrl, password);
    const headers = { 'Blade-Auth': `bearer ${token}` };

    // the user the endpoint sees, built the way the pipeline builds it
    const claims = await kernel.tokens.verifyAccess(token);
    if (!claims) throw new Error('the access token does not verify');
    const user: AuthUser = userFromClaims(claims, undefined);
    const resource = kernel.registry.get('basic/patent');

    const mixed = mixedPaths(MIXED_PATHS);
    const scenarios: Scenario[] = [
      { label: 'no filter', paths: [`${LIST_PATH}?current=1&size=10`] },
      { label: 'name filter', paths: [`${LIST_PATH}?current=1&size=10&name=${encodeURIComponent(FILTER)}`] },
      { label: 'mixed', paths: mixed },
    ].filter((s) => s.label.includes(ONLY));
    if (scenarios.length === 0) throw new Error(`BENCH_ONLY=${ONLY} matches no scenario`);
    const sets = new Map<string, QuerySet>();
    for (const s of scenarios) {
      for (const p of s.paths) {
        const query = Object.fromEntries(new URL(p, oursUrl).searchParams);
        const q = await kernel.engine.buildPageQuery(resource, user, query);
        sets.set(p, { ...q, pageName: statementName(q.pageSql), countName: statementName(q.countSql) });
      }
    }
    const shapes = (ps: string[]) => new Set(ps.map((p) => sets.get(p)!.pageSql)).size;
    const countShapes = (ps: string[]) => new Set(ps.map((p) => sets.get(p)!.countSql)).size;
    if (scenarios.some((s) => s.label === 'mixed')) {
      say(`mixed: ${mixed.length} distinct URLs, ${shapes(mixed)} page SQL shapes, ${countShapes(mixed)} count SQL shapes`);
    }
    // every connection may end up holding each list shape once, and nothing more (DESIGN §13)
    const shapeBound = new Set([...sets.values()].flatMap((q) => [q.pageSql, q.countSql])).size;
    bare = await startBare(kernel.database.url, config.timeZone, config.countBound, sets);
    const barePool = bare.pool;
    const bareUrl = bare.baseUrl;

    // sanity: both servers answer 200 with the same page (every fixed URL, 30 of the mixed ones); run just
    // before each scenario's load, so that the statements it prepares count in that scenario only
    const samples = (s: Scenario) => (s.paths.length === 1 ? s.paths : s.paths.filter((_, i) => i % Math.ceil(s.paths.length / 30) === 0));
    const explainAll = process.env.BENCH_EXPLAIN === '1';
    // of a mixed pool: three sample URLs, or with BENCH_EXPLAIN=shapes the deepest page of every page shape
    const explained = (paths: string[]) => {
      if (process.env.BENCH_EXPLAIN !== 'shapes') return paths.slice(0, 3);
      const deepest = new Map<string, string>();
      for (const p of paths) {
        const q = sets.get(p)!;
        const d = deepest.get(q.pageSql);
        if (!d || (sets.get(d)!.pageParams.at(-1) as number) < (q.pageParams.at(-1) as number)) deepest.set(q.pageSql, p);
      }
      return [...deepest.values()];
    };
    const check = async (s: Scenario) => {
      let records = 0;
      for (const p of samples(s)) {
        const a = await getJson(oursUrl + p, headers);
        const b = await getJson(bareUrl + p, {});
        const ids = (x: any) => (x.data.records as Array<{ id: string }>).map((r) => String(r.id)).join(',');
        if (ids(a) !== ids(b) || a.data.total !== b.data.total) throw new Error(`ours and bare disagree on ${p}`);
        records += a.data.records.length;
        if (s.paths.length === 1) say(`check ${s.label}: ${a.data.records.length} records, total ${a.data.total}${a.data.totalBounded ? ' (bounded)' : ''}, same page from both servers`);
      }
      if (s.paths.length > 1) say(`check ${s.label}: ${samples(s).length} sample URLs, ${records} records in all, same pages from both servers`);
      if (s.paths.length === 1) await explain(pool, s.label, sets.get(s.paths[0])!, explainAll);
      else for (const p of explained(s.paths)) await explain(pool, `${s.label} ${decodeURIComponent(p.slice(LIST_PATH.length))}`, sets.get(p)!, explainAll);
    };

    say(`\nload: ${CONNECTIONS} connections, ${DURATION} s per run after a ${WARMUP} s warm-up (autocannon ${require('autocannon/package.json').version}, Node ${process.version}, ${os.cpus().length} CPUs)`);
    // statements first: that waits for the requests still in flight, so memory is read with both pools idle
    const probe = (p: pg.Pool) => async (): Promise<Snapshot> => {
      const stmts = await preparedPerConnection(p);
      return { ...pgMemory(pgDir), stmts };
    };
    const rows: Row[] = [];
    for (const [i, s] of scenarios.entries()) {
      await check(s);
      const picker = s.paths.length > 1 ? writePathPicker(path.join(dataDir, `paths-${i}.cjs`), s.paths) : undefined;
      const target = (base: string): Target => (picker ? { url: base, setupRequest: picker } : { url: base + s.paths[0] });
      rows.push(await measure(s.label, 'ours', target(oursUrl), headers, probe(pool)));
      rows.push(await measure(s.label, 'bare', target(bareUrl), {}, probe(barePool)));
    }

    say(`\nGET ${LIST_PATH}, ${ROWS.toLocaleString('en')} rows; fixed: current=1, size=10 (name filter = ${FILTER}); mixed: ${mixed.length} URLs, pages 1–500, sizes 10–50, filters and orders at random\n`);
    const cols = ['run', 'req/s', 'p50 ms', 'p97.5 ms', 'p99 ms', 'max ms', 'requests', 'non-2xx', 'errors', 'pg anon MB', 'pg pss MB', 'stmts/conn max', 'stmts sum'];
    const widths = [18, 8, 7, 8, 7, 7, 9, 7, 6, 13, 13, 14, 11];
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    say(line(cols));
    say(line(widths.map((w) => '-'.repeat(w))));
    for (const { label, result: r, before: b, after: a } of rows) {
      say(
        line([
          label,
          r.requests.average.toFixed(1),
          String(r.latency.p50),
          String(r.latency.p97_5),
          String(r.latency.p99),
          String(r.latency.max),
          String(r.latency.totalCount),
          String(r.non2xx),
          String(r.errors + r.timeouts),
          `${b.anonMB.toFixed(0)} → ${a.anonMB.toFixed(0)}`,
          `${b.pssMB.toFixed(0)} → ${a.pssMB.toFixed(0)}${a.pssExact ? '' : '*'}`,
          `${Math.max(0, ...b.stmts)} → ${Math.max(0, ...a.stmts)}`,
          `${sum(b.stmts)} → ${sum(a.stmts)}`,
        ]),
      );
    }
    say(
      `(pg: the postmaster and its children, ${rows[0]?.after.procs ?? '?'} processes after the first run; anon = sum of RssAnon, pss = sum of Pss` +
        `${rows.some((r) => !r.after.pssExact) ? ' (* VmRSS: smaps_rollup unreadable)' : ''}; before = after the warm-up; stmts = pg_prepared_statements on the measured server's pool)`,
    );
    say('');
    for (const { label, result: r } of rows) {
      if (r.non2xx || r.errors || r.timeouts) say(`WARNING ${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts; status codes ${JSON.stringify(r.statusCodeStats)}`);
    }
    for (const s of scenarios) {
      const ours = rows.find((r) => r.label === `ours ${s.label}`)!;
      const base = rows.find((r) => r.label === `bare ${s.label}`)!;
      const o = ours.result;
      const ratio = o.requests.average / base.result.requests.average;
      const clean = o.non2xx === 0 && o.errors === 0 && o.timeouts === 0;
      const limit = ours.before.anonMB * MEMORY_FACTOR + MEMORY_SLACK_MB;
      const flat = ours.after.anonMB <= limit;
      const stmts = Math.max(0, ...ours.after.stmts);
      say(
        `${s.label.padEnd(12)} p99 ours ${o.latency.p99} ms ${o.latency.p99 < P99_BUDGET_MS && clean ? 'PASS' : 'FAIL'} (< ${P99_BUDGET_MS} ms${clean ? '' : ', and no errors'})` +
          `   ratio ours ÷ bare ${ratio.toFixed(2)} ${ratio >= RATIO_BUDGET ? 'PASS' : 'FAIL'} (≥ ${RATIO_BUDGET})` +
          `   memory ${ours.before.anonMB.toFixed(0)} → ${ours.after.anonMB.toFixed(0)} MB ${flat ? 'PASS' : 'FAIL'} (≤ ${limit.toFixed(0)} MB)` +
          `   statements/conn ${stmts} ${stmts <= shapeBound ? 'PASS' : 'FAIL'} (≤ ${shapeBound})`,
      );
    }
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error('bench:api crashed:', e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
