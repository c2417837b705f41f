/**
 * Full-text search (DESIGN §8 Search; spec 001 §7 "/es"; issue 14): the `/es/*` contract served by PostgreSQL
 * — no search server to run.
 *
 * - resources (schemas/search/): `es/index` (index definitions: resource, title field, searchable fields with
 *   weights A–D), `es/ikdic` (the IK dictionary: custom words and stop words, per tenant);
 * - segment.ts: jieba with the grain-storage lexicon (lexicon.ts) and the tenant's dictionary; documents.ts: definitions and indexing into
 *   search_document (migrations.ts); search.ts: ranking (ts_rank_cd); headline.ts: highlights;
 *   hooks.ts: indexing on every committed write (all resources, generic) and the schemas' rules; jobs.ts:
 *   rebuild of an index and re-segmentation after a dictionary change; routes.ts: mapping, getMapping,
 *   searchData, getDataPage, analyze, `<api>/searchByEs` for schemas with `searchByEs`, the public search;
 *   result-cache.ts: pages of repeated searches, dropped on any write of the tables they read;
 * - seed: a changed lexicon re-segments the documents holding its changed words (lexicon.ts `syncLexicon`);
 *   every live tenant gets a default index definition per resource whose schema has `searchByEs` (portal
 *   content, the six achievement types, project declarations): its label field (weight A), its short text
 *   inputs (B, at most 6) and its long texts and rich texts (C) — derived from the schema. Add-only: a tenant
 *   that ever had a definition naming the resource (live or removed by an administrator), or whose index name
 *   is taken, gets none. A new definition is built at once by a `search-reindex` job (so the records written
 *   before it are found too); later writes are indexed as they commit.
 */
import { CHANNEL } from '../../core/channels.js';
import { sql } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import type { Module } from '../../core/module.js';
import type { Registry } from '../../resources/registry.js';
import type { IndexField } from './documents.js';
import { enqueueReindex, IndexCache, registerSearchHooks } from './hooks.js';
import { REINDEX_JOB, RESEGMENT_JOB, reindexJob, resegmentJob, systemOwner } from './jobs.js';
import { syncLexicon } from './lexicon.js';
import { migrations } from './migrations.js';
import { WordStats } from './word-stats.js';
import { SearchResultCache } from './result-cache.js';
import { registerSearchRoutes } from './routes.js';
import { openSearchPool, type SearchPage } from './search.js';
import { Segmenters } from './segment.js';

/** The default definitions of the seed (see the module comment). */
export function defaultIndexes(registry: Registry): Array<{ indexName: string; resource: string; titleField: string; fields: IndexField[] }> {
  const out = [];
  for (const r of registry.resources.values()) {
    if (!r.schema.searchByEs || !r.tenantScoped) continue;
    const label = r.schema.labelField ?? 'title';
    if (!r.byField.has(label)) continue;
    const fields: IndexField[] = [{ field: label, weight: 'A' }];
    let short = 0;
    for (const f of r.fields) {
      if (f.name === label || f.node.type !== 'string' || f.node['x-server-only'] || f.node.enum) continue;
      const c = f.node['x-component'];
      if (c === 'RichText' || c === 'Input.TextArea') fields.push({ field: f.name, weight: 'C' });
      else if (c === 'Input' && short < 6) {
        fields.push({ field: f.name, weight: 'B' });
        short++;
      }
    }
    out.push({ indexName: r.schema.name.replace(/[^a-z0-9]+/g, '_'), resource: r.schema.name, titleField: label, fields });
  }
  return out;
}

export const module: Module = {
  name: 'search',
  migrations,
  async routes(app, k) {
    const db = k.database.db;
    const segmenters = new Segmenters(db);
    const log = (e: unknown) => app.log.error(e);
    const indexes = new IndexCache(db);
    // repeated searches answered from memory; every write of a table it read (any node) makes a page stale
    const cache = new SearchResultCache<SearchPage>();
    await k.channels.subscribe(CHANNEL.cache, (payload) => {
      if (payload.startsWith('count:')) cache.invalidate(payload.slice(6));
    });
    registerSearchHooks({ db, engine: k.engine, registry: k.registry, jobs: k.jobs, segmenters, log, written: () => cache.invalidate('search_document') }, indexes);
    const deps = { db, registry: k.registry, segmenters };
    await k.jobs.define(REINDEX_JOB, reindexJob(deps), { batchSize: 1 });
    await k.jobs.define(RESEGMENT_JOB, resegmentJob(deps), { batchSize: 1 });
    const pool = openSearchPool(k.database.url, k.config.timeZone);
    app.addHook('onClose', () => pool.end());
    registerSearchRoutes(app, { db, pool, engine: k.engine, registry: k.registry, jobs: k.jobs, segmenters, cache, indexes, stats: new WordStats(pool) });
    setImmediate(() => segmenters.warm());
  },
  async seed(k) {
    const db = k.database.db;
    await syncLexicon(db, k.jobs);
    const defs = defaultIndexes(k.registry);
    if (!defs.length) return;
    const tenants = await sql<{ t: string }>`SELECT tenant_id AS t FROM blade_tenant WHERE is_deleted = 0 ORDER BY tenant_id`.execute(db);
    for (const { t } of tenants.rows) {
      const added: Array<{ id: string; indexName: string }> = [];
      await db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`search-seed:${t}`}))`.execute(trx);
        const had = await sql<{ resource: string; name: string; deleted: number }>`SELECT resource, index_name AS name, is_deleted AS deleted FROM es_index WHERE tenant_id = ${t}`.execute(trx);
        for (const d of defs) {
          if (had.rows.some((x) => x.resource === d.resource || (x.name === d.indexName && Number(x.deleted) === 0))) continue;
          const id = nextId();
          await sql`INSERT INTO es_index (id, tenant_id, index_name, resource, title_field, fields, enabled, index_status, progress, doc_count, remark)
                    VALUES (${id}::bigint, ${t}, ${d.indexName}, ${d.resource}, ${d.titleField}, ${JSON.stringify(d.fields)}::jsonb, true, 0, 0, 0, '默认索引')`.execute(trx);
          added.push({ id, indexName: d.indexName });
        }
      });
      const owner = systemOwner(t);
      for (const a of added) await enqueueReindex({ db, jobs: k.jobs }, owner, a.id, a.indexName);
    }
  },
};
