/**
 * API benchmark (DESIGN §10): a list page over 100,000 rows, ours against a bare server running the same SQL.
 *
 * `npm run bench:api` (about 2–3 minutes):
 *
 * 1. Starts the kernel (`startKernel`) over a fresh embedded PostgreSQL in `<tmpdir>/kc-bench-<pid>` on a
 *    free port: migrations, table sync (with the list, create_user/create_dept and pg_trgm indexes) and the
 *    demo seed, exactly as `npm start` does.
 * 2. Seeds 100,000 rows into `basic_patent` with `INSERT … SELECT FROM generate_series` (4 batches): tenant
 *    000000, created by `kygl`, create_time spread over the last 3 years, realistic Chinese names built from
 *    30 grain-storage topics (one of them is 低温储粮, so the name filter matches about 3.3 % of the rows),
 *    then `VACUUM (ANALYZE)`: a table in steady state (statistics, visibility map for index-only scans), and
 *    no autovacuum of the fresh rows starting in the middle of a measured run.
 * 3. Logs in like a client as `kygl` (research management: the `patent` menu grant, no data scope) and
 *    serves the real Fastify app (`buildApp`) on 127.0.0.1.
 * 4. Starts a bare `node:http` server with its own `pg.Pool` (20 connections, as ours; same time zone and
 *    type parsers) that answers the same envelope `{code, success, data: {records, total, size, current,
 *    pages}, msg}` by running, in parallel, the page and count SQL that `engine.buildPageQuery` builds for
 *    that user and query: one prepared set per scenario, picked by the request URL. Like the engine it runs
 *    them as named prepared statements and keeps the bounded count for the CountCache lifetime (5 s). It does
 *    no auth, no validation, no row mapping and no API log, so it is the ceiling for "the same SQL".
 * 5. Loads `GET /api/basic/patent/list?current=1&size=10` without and with `name=低温储粮` on both servers
 *    with autocannon (50 connections, 20 s each, after a 2 s warm-up; the load generator runs in a worker
 *    thread so it does not share the servers' event loop), and prints req/s (mean), p50, p99, non-2xx and
 *    errors, then the ratio ours ÷ bare in req/s per scenario and PASS/FAIL against the budgets: p99 of ours
 *    under 50 ms, ratio at least 0.8.
 *
 * The exit code is 0 whatever the figures (a benchmark prints figures; it is not a test); it is non-zero only
 * when something crashes. Environment: `BENCH_DURATION` (seconds per measured run, default 20) and
 * `BENCH_CONNECTIONS` (default 50) shorten or change the runs. Before loading it prints the execution time
 * of the page and the count SQL of each scenario (one `EXPLAIN ANALYZE`, warm cache); `BENCH_EXPLAIN=1`
 * prints the whole `EXPLAIN (ANALYZE, BUFFERS)` plans.
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
const DURATION = Number(process.env.BENCH_DURATION || 20);
const WARMUP = 2;
const POOL_SIZE = 20; // as openDatabase's default
const P99_BUDGET_MS = 50;
const RATIO_BUDGET = 0.8;
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
  params: unknown[];
  current: number;
  size: number;
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
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, types: bareTypes as any, options: `-c TimeZone=${timeZone} -c statement_timeout=60000` });
  const countCache = new Map<string, { at: number; value: number }>();
  const server = http.createServer((req, res) => {
    const set = sets.get(req.url ?? '');
    if (!set) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end('{"code":404,"success":false}');
      return;
    }
    // the same work as the engine: both statements named (prepared once per connection), and the bounded
    // count kept for COUNT_TTL_MS (the engine's CountCache); nothing writes during the run
    const cached = countCache.get(req.url!);
    const counting =
      cached && Date.now() - cached.at <= COUNT_TTL_MS
        ? cached.value
        : pool.query({ name: set.countName, text: set.countSql, values: set.params }).then((c) => {
            countCache.set(req.url!, { at: Date.now(), value: c.rows[0].c as number });
            return c.rows[0].c as number;
          });
    Promise.all([pool.query({ name: set.pageName, text: set.pageSql, values: set.params }), counting]).then(
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
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

interface Scenario {
  label: string;
  path: string;
}

interface Row {
  label: string;
  result: AutocannonResult;
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<AutocannonResult> {
  // workers: 1 — the load generator runs in its own thread, not on the event loop of the server it measures
  return autocannon({ url, headers, connections: CONNECTIONS, duration, workers: 1 });
}

async function measure(label: string, url: string, headers: Record<string, string>): Promise<Row> {
  await load(url, headers, WARMUP);
  const result = await load(url, headers, DURATION);
  say(`  measured ${label}: ${result.requests.average.toFixed(1)} req/s, p99 ${result.latency.p99} ms`);
  return { label, result };
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
  for (const [what, text] of [['page', set.pageSql], ['count', set.countSql]] as const) {
    await pool.query(text, set.params); // warm
    const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, set.params);
    const lines = plan.rows.map((r) => String(r['QUERY PLAN']));
    const node = lines.find((l) => /Scan/.test(l))?.replace(/^[\s>-]+/, '').replace(/\s+\(.*$/, '') ?? '?';
    times.push(`${what} ${lines.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?'} (${node})`);
    if (full) {
      say(`\n-- ${label}, ${what} SQL: ${text}\n-- params: ${JSON.stringify(set.params)}`);
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

    const scenarios: Scenario[] = [
      { label: 'no filter', path: `${LIST_PATH}?current=1&size=10` },
      { label: 'name filter', path: `${LIST_PATH}?current=1&size=10&name=${encodeURIComponent(FILTER)}` },
    ];
    const sets = new Map<string, QuerySet>();
    for (const s of scenarios) {
      const query = Object.fromEntries(new URL(s.path, oursUrl).searchParams);
      const q = await kernel.engine.buildPageQuery(resource, user, query);
      const named = (text: string) => 'kc_' + createHash('sha1').update(text).digest('hex').slice(0, 20);
      sets.set(s.path, { ...q, pageName: named(q.pageSql), countName: named(q.countSql) });
    }
    bare = await startBare(kernel.database.url, config.timeZone, config.countBound, sets);

    // sanity: both servers answer 200 with the same page
    for (const s of scenarios) {
      const a = await getJson(oursUrl + s.path, headers);
      const b = await getJson(bare.baseUrl + s.path, {});
      const ids = (x: any) => (x.data.records as Array<{ id: string }>).map((r) => String(r.id)).join(',');
      if (ids(a) !== ids(b) || a.data.total !== b.data.total) throw new Error(`ours and bare disagree on ${s.path}`);
      say(`check ${s.label}: ${a.data.records.length} records, total ${a.data.total}${a.data.totalBounded ? ' (bounded)' : ''}, same page from both servers`);
    }
    for (const s of scenarios) await explain(pool, s.label, sets.get(s.path)!, process.env.BENCH_EXPLAIN === '1');

    say(`\nload: ${CONNECTIONS} connections, ${DURATION} s per run after a ${WARMUP} s warm-up (autocannon ${require('autocannon/package.json').version}, Node ${process.version}, ${os.cpus().length} CPUs)`);
    const rows: Row[] = [];
    for (const s of scenarios) {
      rows.push(await measure(`ours ${s.label}`, oursUrl + s.path, headers));
      rows.push(await measure(`bare ${s.label}`, bare.baseUrl + s.path, {}));
    }

    say(`\nGET ${LIST_PATH} (current=1, size=10; name filter = ${FILTER}), ${ROWS.toLocaleString('en')} rows\n`);
    const cols = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'requests', 'non-2xx', 'errors'];
    const widths = [18, 9, 8, 8, 8, 10, 8, 7];
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    say(line(cols));
    say(line(widths.map((w) => '-'.repeat(w))));
    for (const { label, result: r } of rows) {
      say(line([label, r.requests.average.toFixed(1), String(r.latency.p50), String(r.latency.p99), String(r.latency.max), String(r.latency.totalCount), String(r.non2xx), String(r.errors + r.timeouts)]));
    }
    say('');
    for (const { label, result: r } of rows) {
      if (r.non2xx || r.errors || r.timeouts) say(`WARNING ${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts; status codes ${JSON.stringify(r.statusCodeStats)}`);
    }
    for (const s of scenarios) {
      const ours = rows.find((r) => r.label === `ours ${s.label}`)!.result;
      const base = rows.find((r) => r.label === `bare ${s.label}`)!.result;
      const ratio = ours.requests.average / base.requests.average;
      const clean = ours.non2xx === 0 && ours.errors === 0 && ours.timeouts === 0;
      say(
        `${s.label.padEnd(12)} ratio ours ÷ bare ${ratio.toFixed(2)} ${ratio >= RATIO_BUDGET ? 'PASS' : 'FAIL'} (≥ ${RATIO_BUDGET})` +
          `   p99 ours ${ours.latency.p99} ms ${ours.latency.p99 < P99_BUDGET_MS && clean ? 'PASS' : 'FAIL'} (< ${P99_BUDGET_MS} ms${clean ? '' : ', and no errors'})`,
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
