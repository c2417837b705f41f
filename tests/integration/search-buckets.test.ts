/**
 * Where a search looks for its candidates (issue 14 performance; search.ts, word-stats.ts, migrations.ts
 * 0003): in one GIN scan over all documents (`plain`) or insertion bucket by bucket, newest first, until the
 * window is full (`buckets`). Both answer the same hits when fewer than the window match, across buckets with
 * nothing in between; with more matches than the window, buckets give the most recently indexed ones, and a
 * page past the window sees every match; another tenant finds nothing either way. The route reports the way
 * taken (`X-Search-Plan`), which a small corpus always answers plainly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userFromClaims, type AuthUser } from '../../src/server/core/context.js';
import { indexById, indexRecords, type IndexDef } from '../../src/server/modules/search/documents.js';
import { BUCKET_SIZE } from '../../src/server/modules/search/migrations.js';
import { CANDIDATES, openSearchPool, search, type SearchContext, type SearchPage } from '../../src/server/modules/search/search.js';
import { Segmenters } from '../../src/server/modules/search/segment.js';
import type { SearchPlan } from '../../src/server/modules/search/word-stats.js';
import { call, login, testServer, until, validPatent, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let other: Session;
let ctx: SearchContext;
let def: IndexDef;
let seed = '';

const TAG = `bk${Date.now().toString(36)}`;
const INDEX = `t_${TAG}`;

/** The request user of a session (its token's claims, all roles active). */
function userOf(x: Session): AuthUser {
  const claims = JSON.parse(Buffer.from(x.token.split('.')[1], 'base64url').toString('utf8'));
  return userFromClaims(claims, undefined);
}

const q = (sql: string, params: unknown[] = []) => s.kernel.database.pool.query(sql, params);

/** Moves the indexing order to `before` places short of the next bucket boundary (never backwards). */
async function nearBoundary(before: number): Promise<number> {
  const cur = Number((await q(`SELECT last_value FROM search_document_seq`)).rows[0].last_value);
  let boundary = (Math.floor(cur / BUCKET_SIZE) + 1) * BUCKET_SIZE;
  if (boundary - before <= cur) boundary += BUCKET_SIZE;
  await q(`SELECT setval('search_document_seq', $1::bigint)`, [boundary - before]);
  return boundary / BUCKET_SIZE;
}

/** `n` copies of the seed patent (keys seed + from + 1 …) named `<word> 第g号`; answers their ids, ascending. */
async function copies(word: string, n: number, from: number): Promise<string[]> {
  const r = await q(
    `INSERT INTO basic_patent SELECT (jsonb_populate_record(NULL::basic_patent, to_jsonb(p) || jsonb_build_object('id', p.id + $4::int + g, 'name', $2 || ' 第' || g || '号'))).*
       FROM basic_patent p, generate_series(1, $3::int) AS g WHERE p.id = $1::bigint RETURNING id::text AS id`,
    [seed, word, n, from],
  );
  return r.rows.map((x) => x.id as string).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

const find = (user: AuthUser, keyword: string, plan: SearchPlan, current = 1) => search(ctx, { user, indexes: [def], keyword, current, size: 10, plan, fresh: true });
const idsOf = (p: SearchPage) => p.records.map((r) => r.id);

beforeAll(async () => {
  s = await testServer();
  [admin, other] = await Promise.all([login(s, 'admin'), login(s, 'admin', { tenantId: '100001' })]);
  const add = await call(s, admin, 'POST', '/api/es/index/submit', { indexName: INDEX, resource: 'basic/patent', titleField: 'name', fields: [{ field: 'name', weight: 'A' }] });
  expect(add.status, JSON.stringify(add.body)).toBe(200);
  await until('index built', async () => (await call(s, admin, 'GET', `/api/es/index/detail?id=${add.body.data.id}`)).body.data.indexStatus === 2);
  def = (await indexById(s.kernel.database.db, '000000', add.body.data.id))!;
  const p = await call(s, admin, 'POST', '/api/basic/patent/submit', { ...validPatent(TAG, admin.deptId), name: `${TAG} 种子专利` });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  seed = p.body.data.id;
  ctx = { pool: openSearchPool(s.kernel.database.url, s.kernel.config.timeZone), engine: s.kernel.engine, segmenters: new Segmenters(s.kernel.database.db) };
});
afterAll(async () => {
  await q(`DELETE FROM search_document WHERE index_id = $1::bigint`, [def?.id ?? '0']).catch(() => undefined);
  await q(`DELETE FROM basic_patent WHERE name LIKE $1`, [`${TAG}%`]).catch(() => undefined);
  await ctx?.pool.end();
  await s?.close();
});

describe('plain and bucketed candidates', () => {
  it('find the same hits spread over buckets with none between them; another tenant finds nothing', async () => {
    const word = `${TAG}散`;
    const ids = await copies(word, 5, 0);
    // each copy in a bucket of its own, a whole bucket apart
    for (const id of ids) {
      await nearBoundary(1);
      await q(`SELECT setval('search_document_seq', last_value + $1::bigint) FROM search_document_seq`, [BUCKET_SIZE]);
      expect(await indexRecords(s.kernel.database.db, s.kernel.registry, ctx.segmenters, def, [id])).toBe(1);
    }
    const buckets = await q(`SELECT count(DISTINCT bucket)::int AS n, max(bucket) - min(bucket) AS span FROM search_document WHERE index_id = $1::bigint AND record_id = ANY($2::bigint[])`, [def.id, ids]);
    expect(buckets.rows[0].n).toBe(5);
    expect(Number(buckets.rows[0].span)).toBeGreaterThanOrEqual(8);
    const plain = await find(userOf(admin), word, 'plain');
    const bucketed = await find(userOf(admin), word, 'buckets');
    expect(plain.total).toBe(5);
    expect(bucketed.total).toBe(5);
    expect(idsOf(bucketed)).toEqual([...ids].reverse());
    expect(idsOf(plain)).toEqual(idsOf(bucketed));
    expect(bucketed.records[0].highlight).toContain('<em>');
    for (const plan of ['plain', 'buckets'] as const) {
      const theirs = await find(userOf(other), word, plan);
      expect(theirs.total).toBe(0);
      expect(theirs.records).toEqual([]);
    }
  });

  it('with more matches than the window, buckets rank the most recently indexed; a page past it sees all', async () => {
    const word = `${TAG}窗`;
    const ids = await copies(word, 240, 1000);
    const top = await nearBoundary(180); // 180 copies in one bucket, the 60 newest in the next: fewer than the window
    expect(await indexRecords(s.kernel.database.db, s.kernel.registry, ctx.segmenters, def, ids)).toBe(240);
    const split = await q(`SELECT bucket, count(*)::int AS n FROM search_document WHERE index_id = $1::bigint AND record_id = ANY($2::bigint[]) GROUP BY bucket ORDER BY bucket`, [def.id, ids]);
    expect(split.rows.length).toBeGreaterThanOrEqual(2);
    expect(split.rows.at(-1).bucket).toBeGreaterThanOrEqual(top);
    const first = await find(userOf(admin), word, 'buckets');
    expect(first).toMatchObject({ total: CANDIDATES, totalBounded: true, pages: CANDIDATES / 10 });
    // the newest bucket is read whole before any older one: its copies (the highest keys) come first
    expect(idsOf(first)).toEqual(ids.slice(-10).reverse());
    for (const plan of ['plain', 'buckets'] as const) {
      const past = await find(userOf(admin), word, plan, 21);
      expect(past).toMatchObject({ total: 240, current: 21, pages: 24 });
      expect(past.totalBounded).toBeUndefined();
      expect(past.records).toHaveLength(10);
      // a page past the last one still says how many there are
      const beyond = await find(userOf(admin), word, plan, 30);
      expect(beyond).toMatchObject({ total: 240, current: 30, pages: 24, records: [] });
    }
  });

  it('the route reports the way taken: a small corpus is searched plainly', async () => {
    const r = await call(s, admin, 'GET', `/api/es/index/searchData?indexName=${INDEX}&keyword=${encodeURIComponent(`${TAG}散`)}`, undefined, { 'cache-control': 'no-cache' });
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(5);
    expect(r.res.headers['x-search-plan']).toBe('plain');
    expect(r.res.headers['x-search-cache']).toBe('miss');
  });
});
