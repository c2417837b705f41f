/**
 * `npm run bench:search` (issue 14 "Performance"; DESIGN §8 Search, §10): figures, not a timed test.
 *
 * 1. Starts the kernel over a fresh embedded PostgreSQL in `<tmpdir>/kc-bench-search-<pid>` (removed at the end).
 * 2. Generates `SEARCH_DOCS` (default 1,000,000) released portal/content records in tenant 000000: titles from
 *    grain-storage vocabulary (grain, facility, method, parameter, outcome), bodies of 150–450 characters of
 *    generated research text (duplicate-corpus.ts), stored with one INSERT … FROM unnest per 2,000.
 * 3. Builds the seeded portal_content index through the module's own path (documents.ts `indexRecords`, jieba
 *    segmentation + tsvector upsert, 1,000 records a call), then VACUUM ANALYZE; prints the build time, the
 *    documents per second and the sizes of search_document and its GIN index.
 * 4. Serves the app on 127.0.0.1 and, as the demo user kygl, runs `SEARCH_CLIENTS` (20) concurrent clients for
 *    `SEARCH_SECONDS` (10) per scenario: searchByEs and getDataPage with 1-, 2- and 4-word queries (cycling
 *    through a fixed list); prints requests, requests/s and p50 / p95 / p99 latency, against the budget p95 < 50 ms.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/server/core/config.js';
import { buildApp, startKernel, type Kernel } from '../../src/server/app.js';
import { nextId } from '../../src/server/core/ids.js';
import { sql } from '../../src/server/core/db/index.js';
import { indexRecords, tenantIndexes } from '../../src/server/modules/search/documents.js';
import { Segmenters } from '../../src/server/modules/search/segment.js';
import { researchText, rng } from './duplicate-corpus.js';

const DOCS = Number(process.env.SEARCH_DOCS ?? 1_000_000);
const CLIENTS = Number(process.env.SEARCH_CLIENTS ?? 20);
const SECONDS = Number(process.env.SEARCH_SECONDS ?? 10);
const BUDGET_P95_MS = 50;
const TENANT = '000000';
const say = (s: string) => console.log(s);

const GRAIN = ['小麦', '稻谷', '玉米', '大豆', '粳稻', '籼稻', '高粱', '大麦', '油菜籽', '大米'];
const FACILITY = ['高大平房仓', '浅圆仓', '立筒仓', '楼房仓', '钢板仓', '准低温仓', '气调仓', '储备库'];
const METHOD = ['横向通风', '谷冷机降温', '内环流控温', '氮气气调', '磷化氢熏蒸', '智能通风', '压盖保冷', '空调控温', '低温储粮', '绿色储粮'];
const PARAM = ['粮温', '水分', '脂肪酸值', '虫口密度', '二氧化碳浓度', '品尝评分值', '发芽率', '霉菌孢子数'];
const OUTCOME = ['应用研究', '试验分析', '技术规程', '效果评价', '优化设计', '示范推广', '监测预警', '节能改造'];

const QUERIES: Record<1 | 2 | 4, string[]> = {
  1: ['通风', '熏蒸', '粮温', '玉米', '浅圆仓', '水分', '气调', '虫害'],
  2: ['低温 储粮', '氮气 气调', '小麦 水分', '横向通风 粮温', '浅圆仓 熏蒸', '稻谷 品质', '谷冷机 降温', '虫口密度 监测'],
  4: ['高大平房仓 横向通风 粮温 控制', '小麦 低温储粮 品质 变化', '氮气气调 玉米 虫害 防治', '浅圆仓 智能通风 能耗 分析'],
};

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

const pick = <T>(r: () => number, a: T[]) => a[Math.floor(r() * a.length)];
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

async function login(baseUrl: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: { Authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64'), 'Tenant-Id': TENANT, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'kygl', password }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || !body.access_token) throw new Error(`login failed: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

async function scenario(label: string, words: 1 | 2 | 4, request: (q: string) => Promise<Response>): Promise<number> {
  const times: number[] = [];
  let failed = 0;
  let hits = 0;
  const end = Date.now() + SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const q = QUERIES[words][n++ % QUERIES[words].length];
        const t = performance.now();
        const res = await request(q);
        const body = (await res.json()) as { data?: { total?: number } };
        times.push(performance.now() - t);
        if (!res.ok) failed++;
        else hits += body.data?.total ?? 0;
      }
    }),
  );
  const s = times.sort((a, b) => a - b);
  const p95 = pct(s, 95);
  say(`${label.padEnd(24)} ${String(s.length).padStart(6)} req  ${(s.length / SECONDS).toFixed(0).padStart(5)} req/s  p50 ${pct(s, 50).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  p99 ${pct(s, 99).toFixed(1).padStart(6)} ms  avg hits ${(hits / Math.max(1, s.length - failed)).toFixed(0)}${failed ? `  FAILED ${failed}` : ''}  ${p95 < BUDGET_P95_MS ? 'met' : 'MISSED'}`);
  return p95;
}

async function main(): Promise<void> {
  const dataDir = path.join(os.tmpdir(), `kc-bench-search-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as user postgres and must traverse it
  const config = loadConfig({ dataDir, databaseUrl: undefined, pgPort: await freePort(), port: 0, host: '127.0.0.1', isTest: false });
  let kernel: Kernel | undefined;
  let app: FastifyInstance | undefined;
  try {
    say(`bench:search — N = ${DOCS.toLocaleString('en')} documents (SEARCH_DOCS), ${CLIENTS} clients (SEARCH_CLIENTS), ${SECONDS} s per scenario (SEARCH_SECONDS)`);
    kernel = await startKernel(config, (l) => say(`[kernel] ${l}`));
    const db = kernel.database.db;
    const pool = kernel.database.pool;
    const u = (await pool.query<{ id: string; dept_id: string }>(`SELECT id::text, dept_id::text FROM blade_user WHERE tenant_id = $1 AND account = 'kygl'`, [TENANT])).rows[0];
    const channel = nextId();
    await pool.query(`INSERT INTO portal_channel (id, tenant_id, parent_id, title, path, sort) VALUES ($1, $2, 0, '科技动态', 'news', 1)`, [channel, TENANT]);

    const t0 = Date.now();
    const r = rng(14);
    const ids: string[] = [];
    for (let i = 0; i < DOCS; i += 2000) {
      const n = Math.min(2000, DOCS - i);
      const id: string[] = [];
      const title: string[] = [];
      const body: string[] = [];
      for (let k = 0; k < n; k++) {
        id.push(nextId());
        title.push(`${pick(r, GRAIN)}${pick(r, FACILITY)}${pick(r, METHOD)}中${pick(r, PARAM)}的${pick(r, OUTCOME)}`);
        body.push(`<p>${researchText(r, 150 + Math.floor(r() * 300))}</p>`);
      }
      await sql`INSERT INTO portal_content (id, tenant_id, channel_id, title, content, content_status, is_release, release_time, create_user, create_dept)
        SELECT u.id, ${TENANT}, ${channel}::bigint, u.title, u.body, '4', 1, now(), ${u.id}::bigint, ${u.dept_id}::bigint
          FROM unnest(${id}::bigint[], ${title}::text[], ${body}::text[]) AS u(id, title, body)`.execute(db);
      ids.push(...id);
      if ((i / 2000) % 50 === 0) say(`  stored ${(i + n).toLocaleString('en')} records …`);
    }
    say(`records: ${DOCS.toLocaleString('en')} generated and stored in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const def = (await tenantIndexes(db, TENANT, 'portal/content'))[0];
    if (!def) throw new Error('no seeded portal/content index');
    const segmenters = new Segmenters(db);
    const t1 = Date.now();
    for (let i = 0; i < ids.length; i += 1000) {
      await indexRecords(db, kernel.registry, segmenters, def, ids.slice(i, i + 1000));
      if ((i / 1000) % 100 === 0) say(`  indexed ${Math.min(ids.length, i + 1000).toLocaleString('en')} …`);
    }
    const build = (Date.now() - t1) / 1000;
    await sql`VACUUM ANALYZE search_document`.execute(db);
    await sql`VACUUM ANALYZE portal_content`.execute(db);
    const size = (await pool.query<{ t: string; i: string; g: string }>(`SELECT pg_total_relation_size('search_document')::text AS t, pg_indexes_size('search_document')::text AS i,
        pg_relation_size('search_document_tsv')::text AS g`)).rows[0];
    say(`index build: ${build.toFixed(1)} s (${(DOCS / build).toFixed(0)} documents/s, jieba + tsvector + GIN), fields ${def.fields.map((f) => `${f.field}:${f.weight}`).join(', ')}`);
    say(`index size: search_document ${mb(Number(size.t))} in all, its indexes ${mb(Number(size.i))}, of which the GIN (tsv) ${mb(Number(size.g))}`);

    app = await buildApp(kernel);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const token = await login(base, fs.readFileSync(path.join(dataDir, 'initial-password'), 'utf8').trim());
    const headers = { 'Blade-Auth': `bearer ${token}` };
    await fetch(`${base}/api/portal/content/searchByEs?keyword=warm`, { headers }); // loads jieba
    say(`\n${CLIENTS} concurrent clients, ${SECONDS} s each (budget p95 < ${BUDGET_P95_MS} ms):`);
    let worst = 0;
    for (const w of [1, 2, 4] as const) {
      worst = Math.max(worst, await scenario(`searchByEs ${w} word${w > 1 ? 's' : ''}`, w, (q) => fetch(`${base}/api/portal/content/searchByEs?keyword=${encodeURIComponent(q)}&current=1&size=10`, { headers })));
    }
    for (const w of [1, 2, 4] as const) {
      worst = Math.max(worst, await scenario(`getDataPage ${w} word${w > 1 ? 's' : ''}`, w, (q) =>
        fetch(`${base}/api/es/index/getDataPage?current=1&size=10`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ indexName: def.indexName, keyword: q }) })));
    }
    say(`\nworst p95 ${worst.toFixed(1)} ms: budget ${worst < BUDGET_P95_MS ? 'met' : 'MISSED'} at N = ${DOCS.toLocaleString('en')}`);
  } finally {
    await app?.close().catch(() => undefined);
    await kernel?.close().catch((e: Error) => console.error('kernel close:', e.message));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
