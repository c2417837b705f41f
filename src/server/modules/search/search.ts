/**
 * The search itself (DESIGN §8 Search; spec 001 §7 "/es" searchData, getDataPage, portal/content/searchByEs):
 * one query over search_document, ranked and highlighted by PostgreSQL.
 *
 * - the keyword is segmented with the tenant's dictionary (segment.ts `queryWords`); a hit holds every word
 *   (`plainto_tsquery('simple', …)` over the words: AND); no word left (empty, punctuation, stop words only)
 *   answers no records;
 * - visibility: each index searched contributes `index_id = … AND EXISTS (its resource's live row with the
 *   caller's tenant and data-scope conditions, access.ts, plus the caller's filters and `extra` conditions)`
 *   — a hit is a record the caller could list; filters use the list filter language (query.ts `addFilters`:
 *   field names of the resource, suffixes _equal, _like, _dategt …; unknown fields are 400);
 * - ranking: `ts_rank_cd(tsv, query)` (cover density, weights A–D of the index), ties by newest record; a
 *   record indexed by several definitions of its resource is one hit (its best-ranked document);
 *   at most `CANDIDATES` (100) matching documents are ranked — `MAX_WINDOW` (1,000) for a page past the 100th
 *   hit — so a query matching a large share of a big index stays within the latency budget (DESIGN §10): the top
 *   of such a query is the best of the first 100 matches found, and `total` stops at that bound with
 *   `totalBounded: true` (a pager shows 10 pages of 10, "找到超过 100 条"; web search engines cap their result
 *   windows alike). Each candidate costs reading its tsvector out of TOAST, ranking it (ts_rank_cd: ≈ 9 µs for
 *   an 8-word query on bench:search's documents) and one visibility probe: with 200 the 4-word queries of
 *   bench:search stayed at p95 49-54 ms at 20 clients, with 100 (≈ 30 % less database time a search) below 50;
 * - where the candidates are looked for (word-stats.ts `plan`): a query with a rare word (or a small corpus) is
 *   one GIN scan over all documents; a query of common words only is searched insertion bucket by bucket, newest
 *   first (migrations.ts 0003: GIN on (bucket, tsv)), stopping once the window is full — GIN answers only bitmap
 *   scans, which collect every match before the first is read, so eight common words over 10⁶ documents cost
 *   ≈ 90 ms in one scan and ≈ 5 ms in buckets. Either way the candidates are the first window of matches found
 *   (in buckets: the most recently indexed ones), and a query with fewer matches than the window sees them all;
 * - highlights: headline.ts over the segmented text of the page's rows only (`<em>` … `</em>`, up to 3
 *   passages, as ts_headline gave them, on the node: the database is the scarcer core), Chinese without the
 *   blanks between its words;
 * - the statement runs on the search pool (`openSearchPool`): without parallel workers — on a 2-core node serving
 *   many searches at once, starting workers costs more (≈ 10 ms a query) than it saves — and, for a search
 *   without filters, as a prepared statement with a generic plan (planning the statement costs ≈ 0.5 ms, a sixth
 *   of a whole search; its plan does not depend on the words: bucket by bucket, or one GIN scan for a rare word);
 * - a repeated search is answered from the node's result cache (result-cache.ts: keyed by this SQL and its
 *   parameters, dropped when search_document or a searched resource's table changes) unless `fresh`.
 *
 * Answers the generic page `{records, total, size, current, pages}` (+ `totalBounded`), each record
 * `{id, indexName, resource, title, highlight, score}` (score rounded to 4 places).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { ApiError } from '../../core/envelope.js';
import { openPool } from '../../core/db/index.js';
import type { AuthUser } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { addFilters, Conditions, quote } from '../../resources/query.js';
import type { IndexDef } from './documents.js';
import type { SearchResultCache } from './result-cache.js';
import type { Segmenters } from './segment.js';
import { BUCKET_SIZE } from './migrations.js';
import { headline } from './headline.js';
import type { SearchPlan, WordStats } from './word-stats.js';

export const CANDIDATES = 100;
/** The candidates ranked for a page that ends past the `CANDIDATES`th hit (pages past this are empty). */
export const MAX_WINDOW = 1_000;

export interface SearchHit {
  id: string;
  indexName: string;
  resource: string;
  title: string;
  highlight: string;
  score: number;
}

export interface SearchPage {
  records: SearchHit[];
  total: number;
  size: number;
  current: number;
  pages: number;
  totalBounded?: boolean;
  /** The words searched for (after segmentation and stop words). */
  words: string[];
}

export interface SearchRequest {
  user: AuthUser;
  indexes: IndexDef[];
  keyword: string;
  current: number;
  size: number;
  /** List filters on the indexes' resource (applied only when exactly one resource is searched). */
  filters?: Record<string, unknown>;
  /** Extra conditions per resource name: SQL over its columns with `$n` placeholders from `cond` (module code only). */
  extra?: (resource: string, cond: Conditions) => string | null;
  /** Skip the caller's data scope (public pages: visibility comes from `extra`). */
  public?: boolean;
  /** Compute afresh instead of answering from the result cache (`Cache-Control: no-cache`). */
  fresh?: boolean;
  /** Filled in by `search`: whether the page came from the result cache, and how the candidates were found. */
  trace?: { cached: boolean; plan?: SearchPlan };
  /** Forces the way candidates are looked for (tests, benchmarks); by default word-stats.ts decides. */
  plan?: SearchPlan;
}

/** Connections of the search pool (two cores' worth of searches at once, a few waiting). */
const SEARCH_POOL_SIZE = 6;
/** Queries after which a search connection is replaced, dropping the statements it prepared. */
const SEARCH_POOL_USES = 5_000;

/**
 * The pool searches run on (DESIGN §8 Search): no parallel workers, generic plans for prepared statements, at most
 * SEARCH_POOL_SIZE connections beside the main pool, each replaced after SEARCH_POOL_USES queries. Close it with
 * `end()` when the server stops.
 */
export function openSearchPool(url: string, timeZone: string): pg.Pool {
  return openPool(url, timeZone, {
    max: SEARCH_POOL_SIZE,
    maxUses: SEARCH_POOL_USES,
    settings: { max_parallel_workers_per_gather: '0', plan_cache_mode: 'force_generic_plan' },
  });
}

/** What a search runs with: the database, the engine (access), segmentation, and the node's caches. */
export interface SearchContext {
  /** The search pool (`openSearchPool`). */
  pool: pg.Pool;
  engine: ResourceEngine;
  segmenters: Segmenters;
  /** Keeps each page for the next identical search (result-cache.ts); none: always computed. */
  cache?: SearchResultCache<SearchPage>;
  /** Chooses plain or bucketed candidates (word-stats.ts); none: plain. */
  stats?: WordStats;
}

/** The query config of `text`: named (a prepared statement of the connection, by a hash of its text) or not. */
function statement(text: string, values: unknown[], prepared: boolean): pg.QueryConfig {
  return prepared ? { name: `kc_search_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`, text, values } : { text, values };
}

/** Runs a search (see the module comment); `ctx.cache` keeps its page for the next identical search. */
export async function search(ctx: SearchContext, q: SearchRequest): Promise<SearchPage> {
  const { pool, engine, segmenters, cache } = ctx;
  const empty: SearchPage = { records: [], total: 0, size: q.size, current: q.current, pages: 0, words: [] };
  if (!q.indexes.length) return empty;
  const seg = await segmenters.of(q.user.tenantId);
  const words = seg.queryWords(q.keyword ?? '');
  if (!words.length) return empty;
  const cond = new Conditions();
  const tq = cond.param(words.join(' '));
  const tenant = cond.param(q.user.tenantId);
  const resources = new Set(q.indexes.map((d) => d.resource));
  if (q.filters && Object.keys(q.filters).length && resources.size > 1) throw new ApiError(400, { zh: '筛选条件只能用于一个索引', en: 'Filters apply to one index only' });
  const ors: string[] = [];
  const tables = new Set(['search_document']);
  for (const def of q.indexes) {
    const r = engine.registry.resources.get(def.resource);
    if (!r || !r.tenantScoped) continue;
    tables.add(r.schema.table!);
    const inner = new Conditions(cond.params);
    if (q.public) {
      inner.add(`tenant_id = ${inner.param(q.user.tenantId)}`);
      inner.add('is_deleted = 0');
    } else await engine.access.scope(r, q.user, inner);
    if (q.filters) addFilters(r, q.filters, inner);
    const more = q.extra?.(def.resource, inner);
    if (more) inner.add(more);
    const t = quote(r.schema.table);
    ors.push(`(d.index_id = ${cond.param(def.id)}::bigint AND EXISTS (SELECT 1 FROM ${t} WHERE ${t}.${quote(r.keyColumn)} = d.record_id AND ${inner.sql()}))`);
  }
  if (!ors.length) return empty;
  const names = new Map(q.indexes.map((d) => [d.id, d.indexName]));
  // the query parsed once per statement (an InitPlan), not once per candidate ranked: the prepared statement's
  // generic plan cannot fold plainto_tsquery of a parameter (≈ 0.1-0.6 ms a search, more with more words)
  const query = `(SELECT plainto_tsquery('simple', ${tq}))`;
  const where = `d.tenant_id = ${tenant} AND d.tsv @@ ${query} AND (${ors.join(' OR ')})`;
  const window = q.current * q.size <= CANDIDATES ? CANDIDATES : MAX_WINDOW;
  const limit = cond.param(window);
  const plan = q.plan ?? (ctx.stats ? await ctx.stats.plan(words) : 'plain');
  if (q.trace) q.trace.plan = plan;
  // one statement: the candidates (keys and rank only: the long texts are read for the page's rows alone),
  // their count, the page, and its highlights
  const columns = `d.index_id, d.record_id, d.resource, ts_rank_cd(d.tsv, ${query}) AS score`;
  const candidates =
    plan === 'buckets'
      ? `SELECT x.* FROM generate_series((SELECT (last_value / ${BUCKET_SIZE})::int FROM search_document_seq), 0, -1) AS b(n)
           CROSS JOIN LATERAL (SELECT ${columns} FROM search_document d WHERE d.bucket = b.n AND ${where} LIMIT ${limit}) x LIMIT ${limit}`
      : `SELECT ${columns} FROM search_document d WHERE ${where} LIMIT ${limit}`;
  const countSql = `SELECT count(DISTINCT (c.resource, c.record_id))::int AS n FROM (${candidates}) c`;
  const countParams = cond.params.slice();
  const size = cond.param(q.size);
  const offset = cond.param((q.current - 1) * q.size);
  // a record indexed by several definitions of its resource counts once, under its best-ranked one
  const pageSql = `WITH c0 AS MATERIALIZED (${candidates}),
    c AS MATERIALIZED (SELECT DISTINCT ON (resource, record_id) index_id, record_id, score FROM c0 ORDER BY resource, record_id, score DESC, index_id)
    SELECT p.index_id::text AS index_id, p.record_id::text AS id, s.resource, s.title, p.score, (SELECT count(*)::int FROM c) AS total,
      s.seg
    FROM (SELECT * FROM c ORDER BY score DESC, record_id DESC LIMIT ${size} OFFSET ${offset}) p
    JOIN search_document s ON s.tenant_id = ${tenant} AND s.index_id = p.index_id AND s.record_id = p.record_id
    ORDER BY p.score DESC, p.record_id DESC`;
  const key = `${pageSql}\u0000${JSON.stringify(cond.params)}`;
  const deps = [...tables];
  const cached = q.fresh ? undefined : cache?.get(key);
  if (q.trace) q.trace.cached = !!cached;
  if (cached) return cached;
  const stamp = cache?.stamp(deps) ?? [];
  // a search without filters has one of few shapes (indexes, data scope, plan, window): its statement is prepared
  // once per connection and planned once (the search pool plans generically); with filters it is parsed each time
  const prepared = !q.filters || !Object.keys(q.filters).length;
  const rows = await pool.query<Record<string, any>>(statement(pageSql, cond.params, prepared));
  // past the last page there is no row to carry the count (an empty first page means no match at all)
  const count = rows.rows.length
    ? { rows: [{ n: Number(rows.rows[0].total) }] }
    : q.current === 1
      ? { rows: [{ n: 0 }] }
      : await pool.query<{ n: number }>(statement(countSql, countParams, prepared));
  const total = count.rows[0].n;
  const page: SearchPage = {
    records: rows.rows.map((x) => ({
      id: x.id,
      indexName: names.get(x.index_id) ?? '',
      resource: x.resource,
      title: x.title,
      highlight: headline(x.seg ?? '', words),
      score: Math.round(Number(x.score) * 10000) / 10000,
    })),
    total,
    size: q.size,
    current: q.current,
    pages: Math.ceil(total / q.size),
    words,
    ...(total >= window ? { totalBounded: true } : {}),
  };
  cache?.set(key, deps, stamp, page);
  return page;
}
