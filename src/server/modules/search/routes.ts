/**
 * The search endpoints besides the generic ones (spec 001 §7 "/es"; issue 14). Every one checks the caller's
 * grant on the server and reads the caller's tenant only.
 *
 * - `POST /api/es/index/mapping?id=`: (re)builds the index from its definition — a `search-reindex` job;
 *   answers `{jobId, mapping}`. Grant: editing es/index (menu es_index).
 * - `GET /api/es/index/getMapping?id=` (or `indexName=`): the mapping `{id, indexName, resource, titleField,
 *   analyzer: 'jieba', properties: {field: {type, weight, title, titleEn}}, indexStatus, progress, docCount}`.
 *   Grant: reading es/index.
 * - `GET /api/es/index/searchData?keyword=&indexName=&current=&size=`: hits of one index (indexName) or of every
 *   enabled index of the tenant whose resource the caller may read (search.ts; an index whose resource the caller
 *   may not read is 403 when named, left out otherwise).
 * - `POST /api/es/index/getDataPage?current=&size=` body `{indexName?, keyword, filters?}`: as searchData, with
 *   the resource's list filters (`filters`: field[_suffix] → value) when one index is searched.
 * - `GET /api/es/ikdic/analyze?text=`: the tenant's segmentation of a text `{words, searchWords}` (the
 *   dictionary screen's preview). Grant: reading es/ikdic.
 * - `GET <api>/searchByEs?keyword=&current=&size=&…filters` for every resource whose schema has `searchByEs`
 *   (no resource named here): its enabled indexes, for readers of the resource (data scope applied).
 * - `GET /api/es/public/search?tenantId=&resource=&keyword=&current=&size=` (no login): the records of a
 *   resource whose `searchByEs.public` is set, holding those values only (e.g. released portal content).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser } from '../../core/context.js';
import type { Jobs } from '../../core/jobs.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Registry, Resource } from '../../resources/registry.js';
import { paging, quote } from '../../resources/query.js';
import { isId } from '../../../shared/contract/ids.js';
import { indexById, tenantIndexes, type IndexDef } from './documents.js';
import { DIC_RESOURCE, enqueueReindex, INDEX_RESOURCE, type IndexCache } from './hooks.js';
import type { SearchResultCache } from './result-cache.js';
import { search, type SearchPage, type SearchRequest } from './search.js';
import type { Segmenters } from './segment.js';
import type { WordStats } from './word-stats.js';

type Row = Record<string, any>;

export interface RouteDeps {
  db: Db;
  /** The search pool (search.ts `openSearchPool`). */
  pool: pg.Pool;
  engine: ResourceEngine;
  registry: Registry;
  jobs: Jobs;
  segmenters: Segmenters;
  /** Pages of repeated searches (result-cache.ts). */
  cache: SearchResultCache<SearchPage>;
  /** The tenants' index definitions (5 s per node, dropped at once on the node that edits one). */
  indexes: IndexCache;
  /** How common words are (word-stats.ts): plain or bucketed candidates. */
  stats: WordStats;
}

/** `Cache-Control: no-cache` asks for a page computed afresh (RFC 9111 §5.2.1.4). */
const wantsFresh = (req: FastifyRequest) => /\bno-cache\b/i.test(String(req.headers['cache-control'] ?? ''));

/**
 * Runs `search` with the request's cache options — `fresh` from its Cache-Control — and answers on the reply
 * whether the page came from the result cache (`X-Search-Cache: hit | miss`) and, when computed, how its candidates
 * were found (`X-Search-Plan: plain | buckets`, word-stats.ts).
 */
async function searchFor(req: FastifyRequest, reply: FastifyReply, d: RouteDeps, q: Omit<SearchRequest, 'fresh' | 'trace'>): Promise<SearchPage> {
  const trace: NonNullable<SearchRequest['trace']> = { cached: false };
  const page = await search(d, { ...q, fresh: wantsFresh(req), trace });
  reply.header('X-Search-Cache', trace.cached ? 'hit' : 'miss');
  if (trace.plan) reply.header('X-Search-Plan', trace.plan);
  return page;
}

const TENANT_RE = /^\d{6}$/;

function text(v: unknown, param: string, max = 200): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ApiError(400, 'badParam', { param });
  if (v.includes('\u0000')) throw new ApiError(400, 'nulInParam', { param });
  return v.slice(0, max);
}

/** Mounts the endpoints of the module comment. */
export function registerSearchRoutes(app: FastifyInstance, d: RouteDeps): void {
  const { db, engine } = d;
  const tags = ['search'];
  const res = (name: string): Resource => {
    const r = d.registry.resources.get(name);
    if (!r) throw new ApiError(404, 'notFound');
    return r;
  };

  /** The index named by `id` or `indexName` in the caller's tenant (404 otherwise). */
  const namedIndex = async (req: FastifyRequest, user: AuthUser): Promise<IndexDef> => {
    const q = req.query as Row;
    if (q.id !== undefined) {
      if (typeof q.id !== 'string' || !isId(q.id)) throw new ApiError(400, 'badParam', { param: 'id' });
      const def = await indexById(db, user.tenantId, q.id);
      if (!def) throw new ApiError(404, 'notFound');
      return def;
    }
    const name = text(q.indexName, 'indexName', 50);
    if (!name) throw new ApiError(400, 'missingParam', { param: 'id' });
    const def = (await tenantIndexes(db, user.tenantId)).find((x) => x.indexName === name);
    if (!def) throw new ApiError(404, 'notFound');
    return def;
  };

  /** The enabled indexes the caller may search: the one named (403 if its resource is not readable), or all readable. */
  const searchable = async (user: AuthUser, indexName: string, resource?: string): Promise<IndexDef[]> => {
    let defs = (await d.indexes.of(user.tenantId)).filter((x) => x.enabled && (!resource || x.resource === resource));
    if (indexName) {
      defs = defs.filter((x) => x.indexName === indexName);
      if (!defs.length) throw new ApiError(404, 'notFound');
    }
    const out: IndexDef[] = [];
    for (const def of defs) {
      const r = d.registry.resources.get(def.resource);
      if (!r) continue;
      try {
        await engine.authorize(user, r, 'read');
        out.push(def);
      } catch (e) {
        if (indexName || resource) throw e;
      }
    }
    return out;
  };

  const run = async (req: FastifyRequest, reply: FastifyReply, user: AuthUser, q: Row, keyword: string, indexName: string, filters?: Row, resource?: string) => {
    const { current, size } = paging(q);
    const indexes = await searchable(user, indexName, resource);
    return searchFor(req, reply, d, { user, indexes, keyword, current, size: Math.min(size, 100), filters });
  };

  app.post('/api/es/index/mapping', { schema: { tags, summary: 'Search index: (re)build from its definition (a job)' } }, async (req) => {
    const user = await engine.authorize(req.user, res(INDEX_RESOURCE), 'edit');
    const def = await namedIndex(req, user);
    const jobId = await enqueueReindex({ db, jobs: d.jobs }, user, def.id, def.indexName);
    return ok({ jobId, mapping: mappingOf(def) }, undefined, req.lang);
  });

  app.get('/api/es/index/getMapping', { schema: { tags, summary: 'Search index: its mapping (fields, weights, analyzer, state)' } }, async (req) => {
    const user = await engine.authorize(req.user, res(INDEX_RESOURCE), 'read');
    const def = await namedIndex(req, user);
    const st = await sql<Row>`SELECT index_status, progress, doc_count FROM es_index WHERE id = ${def.id}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
    const live = await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_document WHERE tenant_id = ${user.tenantId} AND index_id = ${def.id}::bigint`.execute(db);
    const s = st.rows[0] ?? {};
    return ok({ ...mappingOf(def), indexStatus: s.index_status ?? 0, progress: s.progress ?? 0, docCount: live.rows[0].n }, undefined, req.lang);
  });

  function mappingOf(def: IndexDef) {
    const r = d.registry.resources.get(def.resource);
    const props: Row = {};
    for (const f of def.fields) {
      const node = r?.fields.find((x) => x.name === f.field)?.node as Row | undefined;
      props[f.field] = { type: 'text', analyzer: 'jieba', weight: f.weight, title: node?.title ?? f.field, titleEn: node?.titleEn ?? node?.title ?? f.field };
    }
    return { id: def.id, indexName: def.indexName, resource: def.resource, titleField: def.titleField, enabled: def.enabled, analyzer: 'jieba', properties: props };
  }

  app.get('/api/es/index/searchData', { schema: { tags, summary: 'Search: ranked, highlighted hits of one or all indexes' } }, async (req, reply) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const q = req.query as Row;
    const page = await run(req, reply, req.user, q, text(q.keyword, 'keyword'), text(q.indexName, 'indexName', 50));
    return ok(page, undefined, req.lang);
  });

  app.post('/api/es/index/getDataPage', { config: { readOnly: true }, schema: { tags, summary: 'Search: a page of hits with the resource filters (body filters; query current, size)' } }, async (req, reply) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const body = (req.body ?? {}) as Row;
    if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'badParam', { param: 'body' });
    const filters = body.filters ?? {};
    if (typeof filters !== 'object' || Array.isArray(filters)) throw new ApiError(400, 'badParam', { param: 'filters' });
    const page = await run(req, reply, req.user, req.query as Row, text(body.keyword, 'keyword'), text(body.indexName, 'indexName', 50), filters);
    return ok(page, undefined, req.lang);
  });

  app.get('/api/es/ikdic/analyze', { schema: { tags, summary: 'Search dictionary: the segmentation of a text' } }, async (req) => {
    const user = await engine.authorize(req.user, res(DIC_RESOURCE), 'read');
    const t = text((req.query as Row).text, 'text', 2000);
    const seg = await d.segmenters.of(user.tenantId);
    return ok({ words: seg.displayWords(t), searchWords: seg.documentWords(t) }, undefined, req.lang);
  });

  for (const r of d.registry.resources.values()) {
    if (!r.schema.searchByEs) continue;
    const name = r.schema.name;
    app.get(`${r.schema.api}/searchByEs`, { schema: { tags, summary: `${r.schema.titleEn}: full-text search (ranked, highlighted)` } }, async (req, reply) => {
      const user = await engine.authorize(req.user, res(name), 'read');
      const q = { ...(req.query as Row) };
      const keyword = text(q.keyword, 'keyword');
      const filters: Row = {};
      for (const [k, v] of Object.entries(q)) if (!['keyword', 'current', 'size', 'indexName'].includes(k) && !k.startsWith('_')) filters[k] = v;
      return ok(await run(req, reply, user, q, keyword, '', filters, name), undefined, req.lang);
    });
  }

  app.get('/api/es/public/search', { config: { public: true }, schema: { tags, summary: 'Public search: released records of a resource with searchByEs.public (no login)' } }, async (req, reply) => {
    const q = req.query as Row;
    const tenantId = text(q.tenantId, 'tenantId', 12);
    if (!TENANT_RE.test(tenantId)) throw new ApiError(400, 'badParam', { param: 'tenantId' });
    const r = res(text(q.resource, 'resource', 64));
    const pub = r.schema.searchByEs?.public;
    if (!pub) throw new ApiError(404, 'notFound');
    const { current, size } = paging(q);
    const indexes = (await d.indexes.of(tenantId)).filter((x) => x.enabled && x.resource === r.schema.name);
    const user = { tenantId, userId: '0', isAdmin: false, activeRoleIds: [], deptId: null } as unknown as AuthUser;
    const page = await searchFor(req, reply, d, {
      user, indexes, keyword: text(q.keyword, 'keyword'), current, size: Math.min(size, 50), public: true,
      extra: (_resource, cond) =>
        Object.entries(pub).map(([field, value]) => {
          const col = r.byField.get(field);
          return col ? `${quote(col.column)} = ${cond.param(value)}` : 'FALSE';
        }).join(' AND '),
    });
    return ok(page, undefined, req.lang);
  });
}
